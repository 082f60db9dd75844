/**
 * The in-memory solver of the assignment engine (design.md section 2). Pure: no I/O, no clock,
 * no randomness; the same input always gives the same output. See
 * docs/decisions/003-assignment-solver.md for the algorithm and its measured speed.
 *
 * Phase 1 (maximal + fair) decides how many leads each agent gets: it hands out one unit at a
 * time to the agent with the lowest (x + 1) / q that can still receive one, re-routing earlier
 * picks along an augmenting path over the class graph when no free lead fits that agent
 * directly. That greedy minimises sum(1/q + ... + x/q) over all maximum assignments
 * (separable convex objective over a polymatroid, Federgruen and Groenevelt 1986).
 *
 * Phase 2 (fresh) keeps those per-agent counts and picks which leads: newest first over all
 * classes, a lead is taken when the leads taken so far plus this one can still be matched to the
 * agents with exactly those counts. That is the matroid greedy for the newest basis, so no swap
 * "agent X drops lead l1 for a newer free lead l2 it fits" exists afterwards (rule 4); the
 * counts are unchanged, so rules 1-3 still hold.
 *
 * Both phases work on lead classes (counts per (agent, class) edge), not on single leads.
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
  /** Any monotone number (epoch ms); ties are broken by id. */
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

/** True when lead a is newer than lead b (createdAt, then id, both descending). */
export function isNewer(a: SolverLead, b: SolverLead): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

function byNewest(a: SolverLead, b: SolverLead): number {
  return isNewer(a, b) ? -1 : isNewer(b, a) ? 1 : 0;
}

/**
 * Assigns leads to agents. Preconditions (the DB layer guarantees them): agent ids are unique,
 * each lead appears in one class only, quota and assignedToday are integers. Ids in `fits` that
 * are not in `agents` are ignored, as are repeated ids. Leads are re-sorted (on a copy) only if a
 * class is not already newest first. The input is never modified.
 */
export function solveAssignment(agents: SolverAgent[], classes: LeadClass[]): SolverResult {
  // ---- Agents that can take at least one lead get a dense index. ----
  const seenIds = new Set<number>();
  const indexOf = new Map<number, number>();
  const agentId: number[] = [];
  const quota: number[] = [];
  const base: number[] = [];
  const capList: number[] = [];
  for (const agent of agents) {
    if (seenIds.has(agent.id)) throw new RangeError(`duplicate agent id ${agent.id}`);
    seenIds.add(agent.id);
    const cap = agent.quota - agent.assignedToday;
    if (!(cap > 0)) continue; // at or above quota (or no quota): takes nothing, holds nothing
    indexOf.set(agent.id, agentId.length);
    agentId.push(agent.id);
    quota.push(agent.quota);
    base.push(agent.assignedToday);
    capList.push(cap);
  }
  const n = agentId.length;
  const cap = Int32Array.from(capList);

  // ---- Classes with leads and at least one receiving agent, as a bipartite graph in CSR. ----
  // Edge e joins class eClass[e] and agent eAgent[e]; class c owns edges cStart[c]..cStart[c+1].
  const stampA = new Int32Array(n).fill(-1);
  const classLeads: SolverLead[][] = [];
  const fitsIdx: number[] = [];
  const cStartList: number[] = [0];
  for (let i = 0; i < classes.length; i++) {
    const cls = classes[i];
    if (cls.leads.length === 0) continue;
    const before = fitsIdx.length;
    for (const id of cls.fits) {
      const a = indexOf.get(id);
      if (a === undefined || stampA[a] === i) continue;
      stampA[a] = i;
      fitsIdx.push(a);
    }
    if (fitsIdx.length === before) continue;
    classLeads.push(sortedNewestFirst(cls.leads));
    cStartList.push(fitsIdx.length);
  }
  const k = classLeads.length;
  const m = fitsIdx.length;
  const cStart = Int32Array.from(cStartList);
  const eAgent = Int32Array.from(fitsIdx);
  const eClass = new Int32Array(m);
  for (let c = 0; c < k; c++) eClass.fill(c, cStart[c], cStart[c + 1]);
  // Agent a's edges (ids into the arrays above) are aEdge[aStart[a]..aStart[a+1]], by class.
  const aStart = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) aStart[eAgent[e] + 1]++;
  for (let a = 0; a < n; a++) aStart[a + 1] += aStart[a];
  const aEdge = new Int32Array(m);
  const fill = aStart.slice(0, n);
  for (let e = 0; e < m; e++) aEdge[fill[eAgent[e]]++] = e;

  const flow = new Int32Array(m); // units of class eClass[e] held by agent eAgent[e]
  const given = new Int32Array(n);
  const scratch = new Scratch(n, k);

  solveCounts(
    n,
    k,
    cStart,
    eAgent,
    eClass,
    aStart,
    aEdge,
    classLeads,
    cap,
    quota,
    base,
    agentId,
    flow,
    given,
    scratch,
  );
  const taken = chooseLeads(
    n,
    k,
    cStart,
    eAgent,
    eClass,
    aStart,
    aEdge,
    classLeads,
    given,
    flow,
    scratch,
  );

  // ---- Hand out the chosen leads: class c's newest taken[c] leads, along its edges' flow. ----
  const perAgent: SolverLead[][] = Array.from({ length: n }, () => []);
  for (let c = 0; c < k; c++) {
    const leads = classLeads[c];
    let next = 0;
    for (let e = cStart[c]; e < cStart[c + 1] && next < taken[c]; e++) {
      const list = perAgent[eAgent[e]];
      for (let u = 0; u < flow[e]; u++) list.push(leads[next++]);
    }
  }
  const byAgent = new Map<number, number[]>();
  for (let a = 0; a < n; a++) {
    const list = perAgent[a];
    if (list.length === 0) continue;
    list.sort(byNewest);
    byAgent.set(
      agentId[a],
      list.map((lead) => lead.id),
    );
  }
  return { byAgent };
}

function sortedNewestFirst(leads: SolverLead[]): SolverLead[] {
  for (let i = 1; i < leads.length; i++) {
    if (!isNewer(leads[i - 1], leads[i])) return [...leads].sort(byNewest);
  }
  return leads;
}

/** Per-search marks shared by both phases; a new stamp clears them in O(1). */
class Scratch {
  stamp = 0;
  readonly seenA: Int32Array;
  readonly seenC: Int32Array;
  readonly viaA: Int32Array; // edge by which an agent was reached
  readonly viaC: Int32Array; // edge by which a class was reached
  readonly queue: Int32Array; // nodes of the searched side, in BFS order
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
 * Phase 1: how many leads each agent gets (given[a]), with one feasible flow per edge.
 *
 * Agents are served in the order of (x + 1) / q (x = leads today, ties by agent id). An agent
 * takes a free lead of a class it fits when one exists; otherwise a BFS looks for an augmenting
 * path agent -> class it fits -> agent holding a unit of that class -> ... -> class with a free
 * lead. When none exists the agent is saturated for good (a polymatroid stays saturated as other
 * coordinates grow), and so is everything the failed search reached: those agents and classes
 * are skipped from then on, which bounds the cost of all failed searches by O(edges).
 */
function solveCounts(
  n: number,
  k: number,
  cStart: Int32Array,
  eAgent: Int32Array,
  eClass: Int32Array,
  aStart: Int32Array,
  aEdge: Int32Array,
  classLeads: SolverLead[][],
  cap: Int32Array,
  quota: number[],
  base: number[],
  agentId: number[],
  flow: Int32Array,
  given: Int32Array,
  s: Scratch,
): void {
  const free = new Int32Array(k);
  let freeTotal = 0;
  for (let c = 0; c < k; c++) {
    free[c] = classLeads[c].length;
    freeTotal += free[c];
  }
  const ptr = aStart.slice(0, n); // first own edge whose class may still have a free lead
  const deadA = new Uint8Array(n);
  const deadC = new Uint8Array(k);

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
      // Every class of u has no free lead: u's own direct look-up failed before it was queued.
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
            // v takes a free lead, gives its unit of c to the agent that reached c, and so on.
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

  // Min-heap of agents by (base + given + 1) / quota, ties by agent id.
  const before = (a: number, b: number): boolean => {
    const l = (base[a] + given[a] + 1) * quota[b];
    const r = (base[b] + given[b] + 1) * quota[a];
    return l < r || (l === r && agentId[a] < agentId[b]);
  };
  const heap = new Heap(n, before);
  for (let a = 0; a < n; a++) if (aStart[a + 1] > aStart[a]) heap.push(a);

  while (heap.size > 0 && freeTotal > 0) {
    const a = heap.top();
    if (deadA[a] === 0 && augment(a)) {
      freeTotal--;
      given[a]++;
      if (given[a] < cap[a]) heap.siftTop();
      else heap.pop();
    } else {
      deadA[a] = 1;
      heap.pop();
    }
  }
}

/**
 * Phase 2: which leads. Keeps the per-agent counts of phase 1 and returns taken[c], how many of
 * class c's newest leads go out, leaving in `flow` a matching of those leads onto the agents
 * with exactly given[a] each.
 *
 * Leads are considered newest first over all classes (a heap of classes keyed by their next
 * lead). A lead is taken when its class reaches an agent with room left, directly or along an
 * augmenting path class -> agent it fits -> class that agent holds a unit of -> ... -> agent
 * with room. A class that cannot is closed for good (its older leads cannot make it either),
 * and so is everything the failed search reached.
 */
function chooseLeads(
  n: number,
  k: number,
  cStart: Int32Array,
  eAgent: Int32Array,
  eClass: Int32Array,
  aStart: Int32Array,
  aEdge: Int32Array,
  classLeads: SolverLead[][],
  given: Int32Array,
  flow: Int32Array,
  s: Scratch,
): Int32Array {
  flow.fill(0);
  const room = given.slice();
  let roomTotal = 0;
  for (let a = 0; a < n; a++) roomTotal += room[a];
  const taken = new Int32Array(k);
  const ptr = cStart.slice(0, k); // first own edge whose agent may still have room
  const deadA = new Uint8Array(n);
  const deadC = new Uint8Array(k);

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
      flow[first]++;
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
      // Every agent fitting w has no room: w's own direct look-up failed before it was queued.
      for (let h = cStart[w]; h < cStart[w + 1]; h++) {
        const v = eAgent[h];
        if (deadA[v] === 1 || seenA[v] === stamp) continue;
        seenA[v] = stamp;
        viaA[v] = h;
        reached[na++] = v;
        for (let j = aStart[v]; j < aStart[v + 1]; j++) {
          const e = aEdge[j];
          if (flow[e] === 0) continue;
          const c = eClass[e];
          if (deadC[c] === 1 || seenC[c] === stamp) continue;
          seenC[c] = stamp;
          viaC[c] = e;
          const f = direct(c);
          if (f >= 0) {
            // c's unit moves to an agent with room, v takes a unit of the class that reached
            // it instead, and so on back to the root class.
            flow[f]++;
            room[eAgent[f]]--;
            let x = c;
            while (x !== root) {
              const give = viaC[x];
              flow[give]--;
              const take = viaA[eAgent[give]];
              flow[take]++;
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

  // Max-heap of classes by their next untaken lead (newest first).
  const before = (a: number, b: number): boolean =>
    isNewer(classLeads[a][taken[a]], classLeads[b][taken[b]]);
  const heap = new Heap(k, before);
  for (let c = 0; c < k; c++) heap.push(c);

  while (heap.size > 0 && roomTotal > 0) {
    const c = heap.top();
    if (deadC[c] === 0 && augment(c)) {
      roomTotal--;
      taken[c]++;
      if (taken[c] < classLeads[c].length) heap.siftTop();
      else heap.pop();
    } else {
      deadC[c] = 1;
      heap.pop();
    }
  }
  if (roomTotal !== 0) throw new Error('assignment solver: phase 2 could not realise the counts');
  return taken;
}

/** Binary heap of small ints with an external order. */
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
