/**
 * The in-memory solver of the assignment engine (design.md section 2). Pure: no I/O, no clock,
 * no randomness; the same input always gives the same output. The algorithm, its complexity
 * and its measured speed are in docs/decisions/003-assignment-solver.md.
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

export interface LeadClass {
  /** Leads no preference can tell apart, newest first (createdAt desc, then id desc). */
  leads: SolverLead[];
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
  const g = buildGraph(agents, classes);
  const flow = new Int32Array(g.m);
  const scratch = new Scratch(g.n, g.k);
  const given = solveCounts(g, flow, scratch);
  const taken = chooseLeads(g, given, flow, scratch);

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
    const room = agent.quota - agent.assignedToday;
    if (!(room > 0)) {
      lookup.set(agent.id, -2); // at or above quota (or no quota): takes and holds nothing
      continue;
    }
    lookup.set(agent.id, agentId.length);
    agentId.push(agent.id);
    quota.push(agent.quota);
    base.push(agent.assignedToday);
    roomList.push(room);
  }
  const n = agentId.length;

  let maxEdges = 0;
  let maxLeads = 0;
  for (const cls of classes) {
    if (cls.leads.length === 0) continue;
    maxEdges += cls.fits.length;
    maxLeads += cls.leads.length;
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
    if (leads.length === 0) continue;
    const first = m;
    for (const id of fits) {
      const a = lookup.get(id);
      if (a < 0 || stampA[a] === i) continue;
      stampA[a] = i;
      eAgent[m++] = a;
    }
    if (m === first) continue;
    let sorted = true;
    for (const lead of leads) {
      leadAt[l] = lead.createdAt;
      leadId[l] = lead.id;
      const p = l - 1;
      if (l > lStartList[lStartList.length - 1]) {
        sorted &&= leadAt[p] > leadAt[l] || (leadAt[p] === leadAt[l] && leadId[p] > leadId[l]);
      }
      l++;
    }
    if (!sorted) {
      const copy = [...leads].sort((x, y) => (isNewer(x, y) ? -1 : isNewer(y, x) ? 1 : 0));
      for (let j = 0; j < copy.length; j++) {
        leadAt[l - copy.length + j] = copy[j].createdAt;
        leadId[l - copy.length + j] = copy[j].id;
      }
    }
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
  const aEdge = new Int32Array(m);
  const fill = aStart.slice(0, n);
  for (let e = 0; e < m; e++) aEdge[fill[eAgent[e]]++] = e;

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
    lStart: Int32Array.from(lStartList),
    leadAt: leadAt.subarray(0, l),
    leadId: leadId.subarray(0, l),
  };
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
    const flat = this.flat;
    if (flat === null) return this.map.get(id) ?? -1;
    return Number.isInteger(id) && id >= 0 && id < flat.length ? flat[id] : -1;
  }
  set(id: number, index: number): void {
    if (this.flat === null) this.map.set(id, index);
    else this.flat[id] = index;
  }
}

/** Per-search marks shared by both phases; a new stamp clears them in O(1). */
class Scratch {
  stamp = 0;
  readonly seenA: Int32Array;
  readonly seenC: Int32Array;
  readonly viaA: Int32Array; // edge by which an agent was reached
  readonly viaC: Int32Array; // edge by which a class was reached
  readonly queue: Int32Array; // nodes of the side the search expands, in BFS order
  readonly reached: Int32Array; // nodes of the other side that the search reached
  constructor(n: number, k: number) {
    this.seenA = new Int32Array(n);
    this.seenC = new Int32Array(k);
    this.viaA = new Int32Array(n);
    this.viaC = new Int32Array(k);
    this.queue = new Int32Array(Math.max(n, k));
    this.reached = new Int32Array(Math.max(n, k));
  }
}

/**
 * Phase 1: how many leads each agent gets, returned as given[a], with `flow` left holding one
 * feasible spread of those units over the edges.
 *
 * Agents are served in the order of (x + 1) / q (x = assignedToday + given so far; ties by the
 * lower agent id), compared as cross-multiplied integers. An agent takes a free lead of a class
 * it fits when one exists; otherwise a BFS looks for an augmenting path agent -> class it fits
 * -> agent holding a unit of that class -> ... -> class with a free lead. When none exists the
 * agent is saturated for good (in a polymatroid a saturated coordinate stays saturated while the
 * others grow), and so is everything the failed search reached: those agents and classes are
 * skipped from then on, so all failed searches together cost O(edges).
 */
function solveCounts(g: Graph, flow: Int32Array, s: Scratch): Int32Array {
  const { n, k, cStart, eAgent, eClass, aStart, aEdge, lStart, quota, base, agentId, room } = g;
  const given = new Int32Array(n);
  const free = new Int32Array(k);
  let freeTotal = 0;
  for (let c = 0; c < k; c++) {
    free[c] = lStart[c + 1] - lStart[c];
    freeTotal += free[c];
  }
  const ptr = aStart.slice(0, n); // first own edge whose class may still have a free lead
  const deadA = new Uint8Array(n);
  const deadC = new Uint8Array(k);

  // Free counts only fall, so each agent's pointer only moves forward: O(edges) in total.
  const direct = (a: number): number => {
    let p = ptr[a];
    const end = aStart[a + 1];
    while (p < end && free[eClass[aEdge[p]]] === 0) p++;
    ptr[a] = p;
    return p < end ? aEdge[p] : -1;
  };

  const augment = (root: number): boolean => {
    const first = direct(root);
    if (first >= 0) {
      flow[first]++;
      free[eClass[first]]--;
      return true;
    }
    const stamp = ++s.stamp;
    const { seenA, seenC, viaA, viaC, queue, reached } = s;
    let head = 0;
    let tail = 0;
    let nc = 0;
    queue[tail++] = root;
    seenA[root] = stamp;
    while (head < tail) {
      const u = queue[head++];
      // No class of u has a free lead: u's own direct look-up failed before it was queued.
      for (let j = aStart[u]; j < aStart[u + 1]; j++) {
        const e = aEdge[j];
        const c = eClass[e];
        if (deadC[c] === 1 || seenC[c] === stamp) continue;
        seenC[c] = stamp;
        viaC[c] = e;
        reached[nc++] = c;
        for (let h = cStart[c]; h < cStart[c + 1]; h++) {
          if (flow[h] === 0) continue;
          const v = eAgent[h];
          if (deadA[v] === 1 || seenA[v] === stamp) continue;
          seenA[v] = stamp;
          viaA[v] = h;
          const f = direct(v);
          if (f >= 0) {
            // v takes a free lead and hands its unit of c to the agent that reached c, which
            // hands its own unit of the class that reached it on, and so on back to the root.
            flow[f]++;
            free[eClass[f]]--;
            let w = v;
            while (w !== root) {
              const give = viaA[w];
              flow[give]--;
              const take = viaC[eClass[give]];
              flow[take]++;
              w = eAgent[take];
            }
            return true;
          }
          queue[tail++] = v;
        }
      }
    }
    for (let i = 0; i < tail; i++) deadA[queue[i]] = 1;
    for (let i = 0; i < nc; i++) deadC[reached[i]] = 1;
    return false;
  };

  const heap = new Heap(n, (a, b) => {
    const l = (base[a] + given[a] + 1) * quota[b];
    const r = (base[b] + given[b] + 1) * quota[a];
    return l < r || (l === r && agentId[a] < agentId[b]);
  });
  for (let a = 0; a < n; a++) if (aStart[a + 1] > aStart[a]) heap.push(a);

  while (heap.size > 0 && freeTotal > 0) {
    const a = heap.top();
    if (deadA[a] === 0 && augment(a)) {
      freeTotal--;
      given[a]++;
      if (given[a] < room[a]) heap.siftTop();
      else heap.pop();
    } else {
      deadA[a] = 1;
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
 * a matroid a spanned element stays spanned), and so is everything the failed search reached.
 */
function chooseLeads(g: Graph, given: Int32Array, flow: Int32Array, s: Scratch): Int32Array {
  const { n, k, cStart, eAgent, eClass, lStart, leadAt, leadId } = g;
  flow.fill(0);
  const room = given.slice();
  let roomTotal = 0;
  for (let a = 0; a < n; a++) roomTotal += room[a];
  const taken = new Int32Array(k);
  const ptr = cStart.slice(0, k); // first own edge whose agent may still have room
  const deadA = new Uint8Array(n);
  const deadC = new Uint8Array(k);
  // The edges each agent holds units of (flow > 0), at most given[a] of them: the search walks
  // these instead of every class the agent fits.
  const heldStart = new Int32Array(n + 1);
  for (let a = 0; a < n; a++) heldStart[a + 1] = heldStart[a] + given[a];
  const held = new Int32Array(heldStart[n]);
  const heldEnd = heldStart.slice(0, n);
  const add = (e: number): void => {
    if (flow[e]++ === 0) held[heldEnd[eAgent[e]]++] = e;
  };
  const remove = (e: number): void => {
    if (--flow[e] !== 0) return;
    const a = eAgent[e];
    let i = heldStart[a];
    while (held[i] !== e) i++;
    held[i] = held[--heldEnd[a]];
  };

  // Room only falls, so each class's pointer only moves forward: O(edges) in total.
  const direct = (c: number): number => {
    let p = ptr[c];
    const end = cStart[c + 1];
    while (p < end && room[eAgent[p]] === 0) p++;
    ptr[c] = p;
    return p < end ? p : -1;
  };

  const augment = (root: number): boolean => {
    const first = direct(root);
    if (first >= 0) {
      add(first);
      room[eAgent[first]]--;
      return true;
    }
    const stamp = ++s.stamp;
    const { seenA, seenC, viaA, viaC, queue, reached } = s;
    let head = 0;
    let tail = 0;
    let na = 0;
    queue[tail++] = root;
    seenC[root] = stamp;
    while (head < tail) {
      const w = queue[head++];
      // No agent fitting w has room: w's own direct look-up failed before it was queued.
      for (let h = cStart[w]; h < cStart[w + 1]; h++) {
        const v = eAgent[h];
        if (deadA[v] === 1 || seenA[v] === stamp) continue;
        seenA[v] = stamp;
        viaA[v] = h;
        reached[na++] = v;
        for (let j = heldStart[v]; j < heldEnd[v]; j++) {
          const e = held[j];
          const c = eClass[e];
          if (deadC[c] === 1 || seenC[c] === stamp) continue;
          seenC[c] = stamp;
          viaC[c] = e;
          const f = direct(c);
          if (f >= 0) {
            // A unit of c moves to an agent with room; the agent that held it takes a unit of
            // the class that reached it instead, and so on back to the root class.
            add(f);
            room[eAgent[f]]--;
            let x = c;
            while (x !== root) {
              const give = viaC[x];
              remove(give);
              const take = viaA[eAgent[give]];
              add(take);
              x = eClass[take];
            }
            return true;
          }
          queue[tail++] = c;
        }
      }
    }
    for (let i = 0; i < tail; i++) deadC[queue[i]] = 1;
    for (let i = 0; i < na; i++) deadA[reached[i]] = 1;
    return false;
  };

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
    setKey(c);
    heap.push(c);
  }

  while (heap.size > 0 && roomTotal > 0) {
    const c = heap.top();
    if (deadC[c] === 0 && augment(c)) {
      roomTotal--;
      taken[c]++;
      if (taken[c] < lStart[c + 1] - lStart[c]) {
        setKey(c);
        heap.siftTop();
      } else {
        heap.pop();
      }
    } else {
      deadC[c] = 1;
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
