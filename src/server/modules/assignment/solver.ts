/**
 * The in-memory solver of the assignment engine (design.md section 2). Pure: no I/O, no clock,
 * no randomness; the same input always gives the same output. The algorithm, its complexity
 * and its measured speed are in docs/decisions/008-assignment-solver.md.
 *
 * Phase 1 (maximal + fair) decides how many leads each agent gets. It hands out one unit at a
 * time to the agent with the lowest (x + 1) / q that can still receive one, re-routing earlier
 * picks along an augmenting path over the class graph when no free lead fits that agent
 * directly. This greedy minimises sum(1/q + 2/q + ... + x/q) over all maximum assignments
 * (separable convex objective over a polymatroid, Federgruen and Groenevelt 1986), which gives
 * rule 2 (maximal) and rule 3 (fair) for any assignment that realises those counts.
 *
 * Phase 2 (fresh) keeps the per-agent counts and picks which leads: newest first over all
 * classes, a lead is taken when the leads taken so far plus this one can still be matched onto
 * the agents with exactly those counts. That is the matroid greedy for the newest basis, so no
 * exchange "agent X drops lead l1 for a newer lead l2 left over that X fits" exists afterwards
 * (rule 4), whichever way the taken leads are then spread inside their classes.
 *
 * Both phases work on lead classes (counts per (class, agent) edge), never on single leads.
 */

export interface SolverAgent {
  /** Agent user id. */
  id: number;
  /** q: the package's leadsPerDay (> 0). */
  quota: number;
  /** a: leads the agent already has today from any trigger (may be >= quota). */
  assignedToday: number;
}

export interface SolverLead {
  id: number;
  /** Creation time (epoch ms); ties are broken by id, the higher id counting as newer. */
  createdAt: number;
}

/**
 * Leads start..end-1 of two shared columns: a million-lead pool as a few typed arrays rather than
 * a million objects (whose allocation and garbage collection cost more than the solving).
 */
export interface LeadSpan {
  id: Float64Array;
  createdAt: Float64Array;
  start: number;
  end: number;
}

export function leadCount(leads: SolverLead[] | LeadSpan): number {
  return Array.isArray(leads) ? leads.length : leads.end - leads.start;
}

/** The leads as objects (tests and small inputs). */
export function leadList(leads: SolverLead[] | LeadSpan): SolverLead[] {
  if (Array.isArray(leads)) return leads;
  const out: SolverLead[] = [];
  for (let p = leads.start; p < leads.end; p++) {
    out.push({ id: leads.id[p], createdAt: leads.createdAt[p] });
  }
  return out;
}

export interface LeadClass {
  /** Leads no preference can tell apart, newest first (createdAt desc, then id desc). */
  leads: SolverLead[] | LeadSpan;
  /** Ids of the agents this class fits. */
  fits: number[];
}

export interface SolverResult {
  /** Agent id -> lead ids given this run, newest first. Agents given nothing are absent. */
  byAgent: Map<number, number[]>;
}

/** True when lead a is newer than lead b: later createdAt, or the same and a higher id. */
export function isNewer(a: SolverLead, b: SolverLead): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

/**
 * Assigns leads to agents (rules 1-4 of design.md section 2).
 *
 * Preconditions, which the DB layer guarantees: agent ids are unique (a repeat throws), each lead
 * id appears in one class only, quota and assignedToday are integers. Ids in `fits` that are not
 * in `agents` are ignored, and so are repeated ones. A class whose leads are not newest first is
 * sorted on a copy. The input is never modified.
 */
export function solveAssignment(agents: SolverAgent[], classes: LeadClass[]): SolverResult {
  return solveWithTuning(agents, classes, DEFAULT_TUNING);
}

/**
 * Knobs of the path search that change its speed, never its result (tests turn them to their
 * extremes to reach every code path on small instances).
 */
export interface SolverTuning {
  /** Recompute all labels once relabelling has cost this many passes over the graph. */
  relabelBudget: number;
  /** Apply the gap rule. */
  gapRule: boolean;
}

const DEFAULT_TUNING: SolverTuning = { relabelBudget: 1, gapRule: true };

/** solveAssignment with explicit tuning; for tests. */
export function solveWithTuning(
  agents: SolverAgent[],
  classes: LeadClass[],
  tuning: SolverTuning,
): SolverResult {
  const g = buildGraph(agents, classes);
  const flow = new Int32Array(g.m);
  const given = solveCounts(g, flow, tuning);
  const taken = chooseLeads(g, given, flow, tuning);

  // Class c's newest taken[c] leads go out along its edges, flow[e] of them to eAgent[e].
  const outStart = new Int32Array(g.n + 1);
  for (let a = 0; a < g.n; a++) outStart[a + 1] = outStart[a] + given[a];
  const outEnd = outStart.slice(0, g.n);
  const out = new Int32Array(outStart[g.n]); // lead positions, grouped by agent
  for (let c = 0; c < g.k; c++) {
    let next = g.lStart[c];
    for (let e = g.cStart[c]; e < g.cStart[c + 1]; e++) {
      for (let u = flow[e]; u > 0; u--) out[outEnd[g.eAgent[e]]++] = next++;
    }
    if (next !== g.lStart[c] + taken[c]) throw new Error('assignment solver: inconsistent flow');
  }
  const { leadAt, leadId } = g;
  const newestFirst = (p: number, r: number): number =>
    leadAt[r] - leadAt[p] || leadId[r] - leadId[p];
  const byAgent = new Map<number, number[]>();
  for (let a = 0; a < g.n; a++) {
    if (given[a] === 0) continue;
    const positions = Array.from(out.subarray(outStart[a], outStart[a + 1])).sort(newestFirst);
    byAgent.set(
      g.agentId[a],
      positions.map((p) => leadId[p]),
    );
  }
  return { byAgent };
}

/**
 * The bipartite graph between classes and agents with room, in compressed sparse rows.
 * Only agents under quota and classes with leads and at least one such agent take part.
 */
interface Graph {
  n: number; // agents
  k: number; // classes
  m: number; // edges
  agentId: number[];
  quota: number[];
  base: number[]; // assignedToday
  room: Int32Array; // quota - assignedToday (> 0)
  /** Edge e joins class eClass[e] and agent eAgent[e]; class c owns edges cStart[c]..cStart[c+1]. */
  cStart: Int32Array;
  eAgent: Int32Array;
  eClass: Int32Array;
  /** Agent a's edges are aEdge[aStart[a]..aStart[a+1]] (edge ids, by class). */
  aStart: Int32Array;
  aEdge: Int32Array;
  /** aClass[i] = eClass[aEdge[i]]: the classes of agent a's edges, in the same order. */
  aClass: Int32Array;
  /** identity[e] = e: class c's edge ids, in the same shape as aEdge. */
  identity: Int32Array;
  /** Class c's leads, newest first, are positions lStart[c]..lStart[c+1] of leadAt / leadId. */
  lStart: Int32Array;
  leadAt: Float64Array;
  leadId: Float64Array;
}

function buildGraph(agents: SolverAgent[], classes: LeadClass[]): Graph {
  const lookup = new AgentLookup(agents);
  const agentId: number[] = [];
  const quota: number[] = [];
  const base: number[] = [];
  const roomList: number[] = [];
  for (const agent of agents) {
    if (lookup.get(agent.id) !== -1) throw new RangeError(`duplicate agent id ${agent.id}`);
    const room = agent.quota - Math.max(0, agent.assignedToday);
    if (!(agent.quota > 0 && room > 0)) {
      lookup.set(agent.id, -2); // at or above quota (or no quota): takes and holds nothing
      continue;
    }
    lookup.set(agent.id, agentId.length);
    agentId.push(agent.id);
    quota.push(agent.quota);
    base.push(Math.max(0, agent.assignedToday));
    roomList.push(room);
  }
  const n = agentId.length;

  let maxEdges = 0;
  let maxLeads = 0;
  for (const cls of classes) {
    const count = leadCount(cls.leads);
    if (count === 0) continue;
    maxEdges += cls.fits.length;
    maxLeads += count;
  }
  const eAgent = new Int32Array(maxEdges);
  const leadAt = new Float64Array(maxLeads);
  const leadId = new Float64Array(maxLeads);
  const cStartList: number[] = [0];
  const lStartList: number[] = [0];
  const stampA = new Int32Array(n).fill(-1);
  let m = 0;
  let l = 0;
  for (let i = 0; i < classes.length; i++) {
    const { leads, fits } = classes[i];
    if (leadCount(leads) === 0) continue;
    const first = m;
    for (let j = 0; j < fits.length; j++) {
      const a = lookup.get(fits[j]);
      if (a < 0 || stampA[a] === i) continue;
      stampA[a] = i;
      eAgent[m++] = a;
    }
    if (m === first) continue;
    const from = l;
    if (Array.isArray(leads)) {
      for (const lead of leads) {
        leadAt[l] = lead.createdAt;
        leadId[l++] = lead.id;
      }
    } else {
      leadAt.set(leads.createdAt.subarray(leads.start, leads.end), l);
      leadId.set(leads.id.subarray(leads.start, leads.end), l);
      l += leads.end - leads.start;
    }
    sortNewestFirst(leadAt, leadId, from, l);
    cStartList.push(m);
    lStartList.push(l);
  }
  const k = cStartList.length - 1;
  const cStart = Int32Array.from(cStartList);
  const eClass = new Int32Array(m);
  for (let c = 0; c < k; c++) eClass.fill(c, cStart[c], cStart[c + 1]);
  const aStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) aStart[eAgent[e] + 1]++;
  for (let a = 0; a < n; a++) aStart[a + 1] += aStart[a];
  // The transpose: class-major order is kept, so each agent's edges come out sorted by class.
  const aEdge = new Int32Array(m);
  const aClass = new Int32Array(m);
  const fill = aStart.slice(0, n);
  for (let c = 0; c < k; c++) {
    for (let e = cStart[c]; e < cStart[c + 1]; e++) {
      const i = fill[eAgent[e]]++;
      aEdge[i] = e;
      aClass[i] = c;
    }
  }
  const identity = new Int32Array(m);
  for (let e = 0; e < m; e++) identity[e] = e;

  return {
    n,
    k,
    m,
    agentId,
    quota,
    base,
    room: Int32Array.from(roomList),
    cStart,
    eAgent: eAgent.subarray(0, m),
    eClass,
    aStart,
    aEdge,
    aClass,
    identity,
    lStart: Int32Array.from(lStartList),
    leadAt: leadAt.subarray(0, l),
    leadId: leadId.subarray(0, l),
  };
}

/**
 * Sorts leads from..to-1 of the columns newest first (createdAt desc, then id desc), in place.
 * Leads that come as runs already in order (the database's groups) are merged, not re-sorted:
 * the index sort is a TimSort.
 */
export function sortNewestFirst(at: Float64Array, id: Float64Array, from: number, to: number) {
  let sorted = true;
  for (let p = from + 1; p < to && sorted; p++) {
    sorted = at[p - 1] > at[p] || (at[p - 1] === at[p] && id[p - 1] > id[p]);
  }
  if (sorted) return;
  const order: number[] = [];
  for (let p = from; p < to; p++) order.push(p);
  order.sort((x, y) => at[y] - at[x] || id[y] - id[x]);
  const at2 = at.slice(from, to);
  const id2 = id.slice(from, to);
  for (let j = 0; j < order.length; j++) {
    at[from + j] = at2[order[j] - from];
    id[from + j] = id2[order[j] - from];
  }
}

/**
 * Agent id -> dense index (-1 unknown, -2 known but at quota). A flat array when the ids are
 * small non-negative integers (user ids from a sequence), which is much faster than a Map for
 * the millions of look-ups over `fits`; a Map otherwise.
 */
class AgentLookup {
  private readonly flat: Int32Array | null;
  private readonly map = new Map<number, number>();
  constructor(agents: SolverAgent[]) {
    let max = -1;
    let small = true;
    for (const { id } of agents) {
      if (!Number.isInteger(id) || id < 0) small = false;
      else if (id > max) max = id;
    }
    const flatOk = small && max < 4 * agents.length + 1_000_000;
    this.flat = flatOk ? new Int32Array(max + 1).fill(-1) : null;
  }
  get(id: number): number {
    if (this.flat === null) return this.map.get(id) ?? -1;
    const index = this.flat[id]; // undefined for anything but an integer in range
    return index === undefined ? -1 : index;
  }
  set(id: number, index: number): void {
    if (this.flat === null) this.map.set(id, index);
    else this.flat[id] = index;
  }
}

const INF = 0x3fffffff;

/** One side's adjacency: node x's edges are edge[start[x]..start[x+1]], reaching nbr[...]. */
interface Adjacency {
  start: Int32Array;
  edge: Int32Array;
  nbr: Int32Array;
}

/**
 * Augmenting paths over the class graph, one unit at a time. Both phases use it, with the two
 * sides swapped:
 *
 * - phase 1: roots are agents, sinks are classes with a free lead; an agent may take a unit of
 *   any class it fits, and a class's unit may move off any agent holding one;
 * - phase 2: roots are classes, sinks are agents with room; a class may put a unit on any agent
 *   it fits, and an agent may give back a unit of any class it holds.
 *
 * Generically: roots are on side P, sinks on side Q; arc p -> q exists for every edge, arc
 * q -> p while flow[edge] > 0. A root first looks for a sink among its own neighbours (a pointer
 * per root that only moves forward, as sinks only ever fill up). Failing that, it searches with
 * distance labels (the shortest-augmenting-path method of Ahuja and Orlin): dP / dQ are lower
 * bounds on the distance to a sink (INF: no path, for good, because a sink never comes back and
 * a node that cannot reach one never will); the search follows arcs whose head has a label one
 * less and relabels a node that has none, so later searches reuse what earlier ones learned
 * instead of exploring the same region again. Two rules find dead nodes early: the gap rule
 * (below), and, once relabelling has cost as much as one pass over the graph, a reverse BFS from
 * the sinks that recomputes exact labels.
 *
 * Each agent keeps the list of its edges with flow > 0 (at most `held[a]` of them, a small
 * number: the agent's room), so walking an agent's units never scans every class it fits.
 */
class Augmenter {
  readonly dP: Int32Array;
  readonly dQ: Int32Array;
  private readonly direct: Int32Array;
  private readonly curP: Int32Array;
  private readonly curQ: Int32Array;
  private readonly path: Int32Array;
  private readonly queue: Int32Array;
  private readonly limit: number;
  private readonly budget: number;
  private work = 0;
  // Nodes by label (p as p, q as np + q), in doubly linked buckets, for the gap rule: when no
  // node is left at some label g, nothing above g can reach a sink any more (a path drops by at
  // most one label per step), so all of it goes to INF at once.
  private readonly bucket: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private top = 0;
  // The agents' edges with flow > 0: heldList[heldStart[a]..heldEnd[a]].
  private readonly agentOf: Int32Array;
  private readonly heldStart: Int32Array;
  private readonly heldEnd: Int32Array;
  private readonly heldList: Int32Array;

  /** `flow` must be all zero; `agentsArePs` says which side the agents are. */
  constructor(
    private readonly np: number,
    private readonly nq: number,
    private readonly P: Adjacency,
    private readonly Q: Adjacency,
    private readonly eP: Int32Array, // p end of each edge
    private readonly eQ: Int32Array, // q end of each edge
    private readonly flow: Int32Array,
    private readonly sink: Int32Array, // units each q can still absorb
    private readonly agentsArePs: boolean,
    held: Int32Array, // per agent: the most units it can hold
    private readonly tuning: SolverTuning,
  ) {
    this.dP = new Int32Array(np);
    this.dQ = new Int32Array(nq);
    this.direct = P.start.slice(0, np);
    this.curP = new Int32Array(np);
    this.curQ = new Int32Array(nq);
    this.path = new Int32Array(np + nq + 1);
    this.queue = new Int32Array(np + nq);
    this.limit = np + nq; // no shortest path is longer
    this.budget = tuning.relabelBudget * (P.edge.length + np + nq);
    this.bucket = new Int32Array(this.limit + 1);
    this.next = new Int32Array(np + nq);
    this.prev = new Int32Array(np + nq);
    this.agentOf = agentsArePs ? eP : eQ;
    const agents = held.length;
    this.heldStart = new Int32Array(agents + 1);
    for (let a = 0; a < agents; a++) this.heldStart[a + 1] = this.heldStart[a] + held[a];
    this.heldEnd = this.heldStart.slice(0, agents);
    this.heldList = new Int32Array(this.heldStart[agents]);
    this.relabelAll();
  }

  /** Exact labels by a reverse BFS from the sinks: O(edges). */
  private relabelAll(): void {
    const { dP, dQ, queue, P, Q, eQ, flow, sink, heldStart, heldEnd, heldList } = this;
    dP.fill(INF);
    dQ.fill(INF);
    let tail = 0;
    for (let q = 0; q < this.nq; q++) {
      if (sink[q] > 0) {
        dQ[q] = 0;
        queue[tail++] = q;
      }
    }
    for (let head = 0; head < tail; head++) {
      const x = queue[head];
      if (x >= 0) {
        const d = dQ[x] + 1; // every p with an edge to q reaches it
        for (let i = Q.start[x]; i < Q.start[x + 1]; i++) {
          const p = Q.nbr[i];
          if (dP[p] !== INF) continue;
          dP[p] = d;
          queue[tail++] = ~p;
        }
      } else {
        const p = ~x;
        const d = dP[p] + 1; // every q with a unit on p reaches p
        if (this.agentsArePs) {
          for (let i = heldStart[p]; i < heldEnd[p]; i++) {
            const q = eQ[heldList[i]];
            if (dQ[q] !== INF) continue;
            dQ[q] = d;
            queue[tail++] = q;
          }
        } else {
          for (let i = P.start[p]; i < P.start[p + 1]; i++) {
            if (flow[P.edge[i]] === 0) continue;
            const q = P.nbr[i];
            if (dQ[q] !== INF) continue;
            dQ[q] = d;
            queue[tail++] = q;
          }
        }
      }
    }
    this.bucket.fill(-1);
    this.top = 0;
    for (let p = 0; p < this.np; p++) if (dP[p] !== INF) this.link(p, dP[p]);
    for (let q = 0; q < this.nq; q++) if (dQ[q] !== INF) this.link(this.np + q, dQ[q]);
    this.curP.set(P.start.subarray(0, this.np));
    this.curQ.set((this.agentsArePs ? Q.start : heldStart).subarray(0, this.nq));
    this.work = 0;
  }

  private link(u: number, d: number): void {
    const first = this.bucket[d];
    this.next[u] = first;
    this.prev[u] = -1;
    if (first !== -1) this.prev[first] = u;
    this.bucket[d] = u;
    if (d > this.top) this.top = d;
  }

  /** Gives node u (p as p, q as np + q) the label d, then applies the gap rule. */
  private relabel(u: number, d: number): void {
    const { np, dP, dQ, bucket, next, prev } = this;
    const old = u < np ? dP[u] : dQ[u - np];
    if (u < np) dP[u] = d;
    else dQ[u - np] = d;
    if (old !== INF) {
      if (prev[u] === -1) bucket[old] = next[u];
      else next[prev[u]] = next[u];
      if (next[u] !== -1) prev[next[u]] = prev[u];
    }
    if (d !== INF) this.link(u, d);
    if (!this.tuning.gapRule || old === INF || bucket[old] !== -1 || old >= this.top) return;
    for (let level = old + 1; level <= this.top; level++) {
      for (let v = bucket[level]; v !== -1; v = next[v]) {
        if (v < np) dP[v] = INF;
        else dQ[v - np] = INF;
      }
      bucket[level] = -1;
    }
    this.top = old - 1;
  }

  private add(e: number): void {
    if (this.flow[e]++ === 0) this.heldList[this.heldEnd[this.agentOf[e]]++] = e;
  }

  private remove(e: number): void {
    if (--this.flow[e] !== 0) return;
    const { heldList, heldEnd } = this;
    const a = this.agentOf[e];
    let i = this.heldStart[a];
    while (i < heldEnd[a] && heldList[i] !== e) i++;
    if (i === heldEnd[a]) throw new Error('assignment solver: held list out of step');
    heldList[i] = heldList[--heldEnd[a]];
  }

  /**
   * Moves one more unit from `root` to some sink, re-routing along the path; false when no
   * path exists (the root is then saturated for good).
   */
  augment(root: number): boolean {
    const { dP, dQ, curP, curQ, path, P, Q, eP, flow, sink, heldStart, heldEnd, heldList } = this;
    // A sink among the root's own neighbours: O(edges) over the whole run.
    let i = this.direct[root];
    const rootEnd = P.start[root + 1];
    while (i < rootEnd && sink[P.nbr[i]] === 0) i++;
    this.direct[root] = i;
    if (i < rootEnd) {
      sink[P.nbr[i]]--;
      this.add(P.edge[i]);
      return true;
    }

    let depth = 0;
    let x = root;
    let onP = true;
    for (;;) {
      if (dP[root] >= INF) return false;
      if (onP) {
        const want = dP[x] - 1;
        const end = P.start[x + 1];
        let j = curP[x];
        while (j < end && dQ[P.nbr[j]] !== want) j++;
        curP[x] = j;
        if (j < end) {
          path[depth++] = P.edge[j];
          x = P.nbr[j];
          onP = false;
          continue;
        }
        let min = INF;
        for (let h = P.start[x]; h < end; h++) min = Math.min(min, dQ[P.nbr[h]]);
        this.work += end - P.start[x] + 1;
        curP[x] = P.start[x];
        this.relabel(x, min + 1 >= this.limit ? INF : min + 1);
        if (depth > 0) {
          x = this.eQ[path[--depth]]; // back to the q whose unit x was to give up
          onP = false;
        }
      } else {
        if (sink[x] > 0) {
          sink[x]--;
          // Odd steps give a unit back (q -> p), even steps take one (p -> q); giving back
          // first keeps every agent within its `held` room.
          for (let j = 1; j < depth; j += 2) this.remove(path[j]);
          for (let j = 0; j < depth; j += 2) this.add(path[j]);
          return true;
        }
        // Arcs q -> p: q's edges with flow, from q's held list when q is an agent.
        const want = dQ[x] - 1;
        const agent = !this.agentsArePs;
        const begin = agent ? heldStart[x] : Q.start[x];
        const end = agent ? heldEnd[x] : Q.start[x + 1];
        let j = curQ[x];
        let found = -1;
        for (; j < end; j++) {
          const e = agent ? heldList[j] : Q.edge[j];
          if (flow[e] > 0 && dP[eP[e]] === want) {
            found = e;
            break;
          }
        }
        curQ[x] = j;
        if (found >= 0) {
          path[depth++] = found;
          x = eP[found];
          onP = true;
          continue;
        }
        let min = INF;
        for (let h = begin; h < end; h++) {
          const e = agent ? heldList[h] : Q.edge[h];
          if (flow[e] > 0) min = Math.min(min, dP[eP[e]]);
        }
        this.work += end - begin + 1;
        curQ[x] = begin;
        this.relabel(this.np + x, min + 1 >= this.limit ? INF : min + 1);
        x = eP[path[--depth]]; // back to the p that was to take a unit of x
        onP = true;
      }
      if (this.work > this.budget) {
        this.relabelAll();
        depth = 0;
        x = root;
        onP = true;
      }
    }
  }
}

/**
 * Phase 1: how many leads each agent gets, returned as given[a], with `flow` left holding one
 * feasible spread of those units over the edges.
 *
 * Agents are served in the order of (x + 1) / q (x = assignedToday + given so far; ties by the
 * lower agent id), compared as cross-multiplied integers. Each turn moves one unit to the agent
 * along an augmenting path (a free lead it fits directly when there is one, the labels make that
 * the first thing tried). An agent with no path is saturated for good (in a polymatroid a
 * saturated coordinate stays saturated while the others grow) and leaves the queue.
 */
function solveCounts(g: Graph, flow: Int32Array, tuning: SolverTuning): Int32Array {
  const { n, k, cStart, eAgent, eClass, aStart, aEdge, lStart, quota, base, agentId, room } = g;
  const given = new Int32Array(n);
  const free = new Int32Array(k);
  let freeTotal = 0;
  for (let c = 0; c < k; c++) {
    free[c] = lStart[c + 1] - lStart[c];
    freeTotal += free[c];
  }
  const byAgent = { start: aStart, edge: aEdge, nbr: g.aClass };
  const byClass = { start: cStart, edge: g.identity, nbr: eAgent };
  const paths = new Augmenter(
    n,
    k,
    byAgent,
    byClass,
    eAgent,
    eClass,
    flow,
    free,
    true,
    room,
    tuning,
  );

  const heap = new Heap(n, (a, b) => {
    const l = (base[a] + given[a] + 1) * quota[b];
    const r = (base[b] + given[b] + 1) * quota[a];
    return l < r || (l === r && agentId[a] < agentId[b]);
  });
  for (let a = 0; a < n; a++) if (aStart[a + 1] > aStart[a]) heap.push(a);

  while (heap.size > 0 && freeTotal > 0) {
    const a = heap.top();
    if (paths.augment(a)) {
      freeTotal--;
      given[a]++;
      if (given[a] < room[a]) heap.siftTop();
      else heap.pop();
    } else {
      heap.pop();
    }
  }
  return given;
}

/**
 * Phase 2: which leads. Keeps the per-agent counts of phase 1 and returns taken[c], how many of
 * class c's newest leads go out, leaving in `flow` a spread of those leads over the edges that
 * gives every agent exactly given[a].
 *
 * Leads are considered newest first over all classes (a heap of classes keyed by their next
 * lead). A lead is taken when its class reaches an agent with room left, directly or along an
 * augmenting path class -> agent it fits -> class that agent holds a unit of -> ... -> agent
 * with room. A class that cannot is closed for good (its older leads cannot make it either: in
 * a matroid a spanned element stays spanned).
 */
function chooseLeads(
  g: Graph,
  given: Int32Array,
  flow: Int32Array,
  tuning: SolverTuning,
): Int32Array {
  const { n, k, cStart, eAgent, eClass, aStart, aEdge, lStart, leadAt, leadId } = g;
  flow.fill(0);
  const room = given.slice();
  let roomTotal = 0;
  for (let a = 0; a < n; a++) roomTotal += room[a];
  const taken = new Int32Array(k);
  const byAgent = { start: aStart, edge: aEdge, nbr: g.aClass };
  const byClass = { start: cStart, edge: g.identity, nbr: eAgent };
  const paths = new Augmenter(
    k,
    n,
    byClass,
    byAgent,
    eClass,
    eAgent,
    flow,
    room,
    false,
    given,
    tuning,
  );

  // Max-heap of classes by their next untaken lead. The keys sit in small flat arrays so that a
  // comparison does not touch the (large, scattered) lead arrays.
  const keyAt = new Float64Array(k);
  const keyId = new Float64Array(k);
  const setKey = (c: number): void => {
    const p = lStart[c] + taken[c];
    keyAt[c] = leadAt[p];
    keyId[c] = leadId[p];
  };
  const heap = new Heap(
    k,
    (a, b) => keyAt[a] > keyAt[b] || (keyAt[a] === keyAt[b] && keyId[a] > keyId[b]),
  );
  for (let c = 0; c < k; c++) {
    if (paths.dP[c] >= INF) continue; // fits no agent with room
    setKey(c);
    heap.push(c);
  }

  while (heap.size > 0 && roomTotal > 0) {
    const c = heap.top();
    if (paths.augment(c)) {
      roomTotal--;
      taken[c]++;
      if (taken[c] < lStart[c + 1] - lStart[c]) {
        setKey(c);
        heap.siftTop();
      } else {
        heap.pop();
      }
    } else {
      heap.pop();
    }
  }
  if (roomTotal !== 0) throw new Error('assignment solver: phase 2 could not realise the counts');
  return taken;
}

/** Binary heap of small non-negative integers under an external order (`before`). */
class Heap {
  private readonly items: Int32Array;
  size = 0;
  constructor(
    capacity: number,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.items = new Int32Array(Math.max(1, capacity));
  }
  top(): number {
    return this.items[0];
  }
  push(x: number): void {
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(x, items[p])) break;
      items[i] = items[p];
      i = p;
    }
    items[i] = x;
  }
  pop(): void {
    const last = this.items[--this.size];
    if (this.size > 0) {
      this.items[0] = last;
      this.siftTop();
    }
  }
  /** Restores the order after the top's key moved later. */
  siftTop(): void {
    const items = this.items;
    const size = this.size;
    const x = items[0];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const child = r < size && this.before(items[r], items[l]) ? r : l;
      if (!this.before(items[child], x)) break;
      items[i] = items[child];
      i = child;
    }
    items[i] = x;
  }
}
