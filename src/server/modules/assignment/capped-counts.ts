/**
 * Phase 1 of the solver when an agency's daily cap can bind (docs/decisions/028): how many leads
 * each agent gets, over the network
 *
 *   source -> class (its free leads) -> agent it fits -> agency (cap left today) -> sink
 *                                                    \-> sink (no agency, or no cap)
 *
 * The objective is the one of solveCounts (maximal, then least sum of (a + 1) / q + ... + x / q),
 * reached by successive shortest paths: each unit goes along the cheapest path from a free lead
 * to the sink, an agent's k-th unit costing (a + k) / q and a unit given back earning that much.
 * From no flow, with convex costs, the flow after every step is the cheapest of its size, so the
 * last is maximal under the caps and fair. What makes it fast is how the cheapest path is found
 * (decision 028, "Finding the cheapest path"):
 *
 * - A **direct** path ends at an agent whose agency has room (or has no cap), and passes through
 *   no full agency: it costs the agent's (x + 1) / q, and the path itself is any augmenting path
 *   of the class graph (the Augmenter of decision 008). No path to the sink costs less than the
 *   cheapest agent with room whose agency has room, so when that agent has such a path it is a
 *   cheapest one: the greedy of solveCounts, agent by agent from a heap.
 * - A **seat swap** path goes through a full agency: a member with room takes a free lead and
 *   the agency's seat, another member gives a lead back, and that lead ends, maybe through more
 *   swaps, with an agent that no direct path reaches any more (a "stranded" agent). Such paths
 *   only start at a full agency's member and only cross the part of the graph no free lead
 *   reaches, so they are searched backwards from the stranded agents over that part alone
 *   (label-correcting: a swap earns the leaving member's x / q), kept up to date as agents are
 *   stranded, and compared with the heap's cheapest agent at every step.
 */
import { Augmenter, INF } from './augmenting-paths';
import { Heap } from './heap';
import type { Graph } from './solver-graph';
import type { SolverTuning } from './solver-tuning';

/** The agencies of the graph's agents: agency[a] (dense index, -1 none or no cap), room[j]. */
export interface AgencyCaps {
  agency: Int32Array;
  room: Int32Array;
}

/**
 * Whether some agency's cap can bind: its members (with a class they fit) have more room between
 * them than the agency has left. When none can, the caps change nothing.
 */
export function capsCanBind(g: Graph, caps: AgencyCaps): boolean {
  const wanted = new Float64Array(caps.room.length);
  for (let a = 0; a < g.n; a++) {
    const j = caps.agency[a];
    if (j >= 0 && g.aStart[a + 1] > g.aStart[a]) wanted[j] += g.room[a];
  }
  for (let j = 0; j < caps.room.length; j++) if (wanted[j] > caps.room[j]) return true;
  return false;
}

const EPS = 1e-9;
/** an agent's state: may take a unit directly (in the heap), stranded, or neither */
const IN_HEAP = 0;
const STRANDED = 1;
const OUT = 2;

/** Returns given[a], leaving one feasible spread of those units in `flow`. */
export function solveCappedCounts(
  g: Graph,
  caps: AgencyCaps,
  flow: Int32Array,
  tuning: SolverTuning,
): Int32Array {
  const { n, k, cStart, eAgent, eClass, aStart, aEdge, lStart, quota, base, agentId, room } = g;
  const { agency } = caps;
  const J = caps.room.length;
  const given = new Int32Array(n);
  const used = new Int32Array(J);
  const free = new Int32Array(k);
  let freeTotal = 0;
  for (let c = 0; c < k; c++) {
    free[c] = lStart[c + 1] - lStart[c];
    freeTotal += free[c];
  }
  // the members of each agency, in compressed rows
  const mStart = new Int32Array(J + 1);
  for (let a = 0; a < n; a++) if (agency[a] >= 0) mStart[agency[a] + 1]++;
  for (let j = 0; j < J; j++) mStart[j + 1] += mStart[j];
  const member = new Int32Array(mStart[J]);
  const fill = mStart.slice(0, J);
  for (let a = 0; a < n; a++) if (agency[a] >= 0) member[fill[agency[a]]++] = a;

  const paths = new Augmenter(
    {
      roots: { start: aStart, edge: aEdge, nbr: g.aClass },
      sinks: { start: cStart, edge: g.identity, nbr: eAgent },
      rootOfEdge: eAgent,
      sinkOfEdge: eClass,
      flow,
      capacity: free,
      agentsAreRoots: true,
      held: room,
    },
    tuning,
  );
  const up = (a: number) => (base[a] + given[a] + 1) / quota[a];
  const down = (a: number) => (base[a] + given[a]) / quota[a];
  const full = (j: number) => j >= 0 && used[j] >= caps.room[j];
  let anyFull = false;
  for (let j = 0; j < J; j++) if (full(j)) anyFull = true;

  // Direct paths: agents by (x + 1) / q, ties to the lower id, as in solveCounts.
  const state = new Uint8Array(n).fill(OUT);
  const heap = new Heap(n, (a, b) => {
    const l = (base[a] + given[a] + 1) * quota[b];
    const r = (base[b] + given[b] + 1) * quota[a];
    return l < r || (l === r && agentId[a] < agentId[b]);
  });
  const toHeap = (a: number) => {
    if (given[a] < room[a] && !full(agency[a]) && aStart[a + 1] > aStart[a]) {
      state[a] = IN_HEAP;
      heap.push(a);
    }
  };
  for (let a = 0; a < n; a++) toHeap(a);
  const stranded: number[] = [];

  // Seat swaps: cost[v] is the cheapest cost from node v to the sink over the part no free lead
  // reaches (nodes: classes 0..k-1, agents k.., agencies k+n..), next[v] its next node
  // (-1: the sink) and nextEdge[v] the class-agent edge of that step.
  const V = k + n + J;
  const cost = new Float64Array(V);
  const next = new Int32Array(V);
  const nextEdge = new Int32Array(V);
  const queued = new Uint8Array(V);
  const queue = new Int32Array(V);
  let qHead = 0;
  let qSize = 0;
  // where swap paths start (members of full agencies a free lead may reach), by cost to the sink;
  // an entry is stale once its agent's cost moved or it is no longer a start
  const starts = new Starts();

  const enqueue = (v: number) => {
    if (queued[v]) return;
    queued[v] = 1;
    queue[(qHead + qSize++) % V] = v;
  };
  const lower = (v: number, value: number, to: number, edge: number) => {
    if (value < cost[v] - EPS) {
      cost[v] = value;
      next[v] = to;
      nextEdge[v] = edge;
      enqueue(v);
    }
  };
  /** a member with room of a full agency, that a free lead may still reach */
  const isStart = (a: number) => paths.dP[a] < INF && given[a] < room[a] && full(agency[a]);

  const settle = () => {
    while (qSize > 0) {
      const v = queue[qHead];
      qHead = (qHead + 1) % V;
      qSize--;
      queued[v] = 0;
      const d = cost[v];
      if (v < k) {
        // class: an agent holding one of its leads gives it back (and takes another)
        for (let e = cStart[v]; e < cStart[v + 1]; e++) {
          if (flow[e] > 0) lower(k + eAgent[e], d, v, e);
        }
      } else if (v < k + n) {
        const a = v - k;
        if (isStart(a)) {
          starts.push(a, d); // a free lead reaches it at no cost: a swap path starts here
          continue;
        }
        // a takes a lead of a class it fits
        for (let i = aStart[a]; i < aStart[a + 1]; i++) lower(g.aClass[i], d, v, aEdge[i]);
        // a gives its agency's seat back (to a member with room)
        const j = agency[a];
        if (full(j) && given[a] > 0) lower(k + n + j, d - down(a), v, -1);
      } else {
        const j = v - k - n;
        for (let i = mStart[j]; i < mStart[j + 1]; i++) {
          const z = member[i];
          if (given[z] < room[z]) lower(k + z, up(z) + d, v, -1);
        }
      }
    }
  };
  /** every stranded agent whose agency has room is where a swap path may end */
  const searchAgain = () => {
    cost.fill(Number.POSITIVE_INFINITY);
    starts.clear();
    for (const s of stranded) {
      if (state[s] === STRANDED && given[s] < room[s] && !full(agency[s])) {
        lower(k + s, up(s), -1, -1);
      }
    }
    settle();
  };
  /** the cheapest start still current, or -1 */
  const bestStart = (): number => {
    while (starts.size > 0) {
      const a = starts.topAgent();
      const current = starts.topCost() === cost[k + a];
      if (current && isStart(a)) return a;
      starts.pop();
      // no free lead reaches it any more: the search goes on behind it
      if (current && paths.dP[a] >= INF) {
        enqueue(k + a);
        settle();
      }
    }
    return -1;
  };

  let searched = false;
  /**
   * Agency j has just filled: its seats can be swapped. When none of its members is where a swap
   * path ends, this only adds ways (a member holding a seat reaches the agency, the agency its
   * members with room) and the search goes on from them; otherwise it starts again.
   */
  const agencyFilled = (j: number) => {
    if (!searched) return;
    for (let i = mStart[j]; i < mStart[j + 1]; i++) {
      const a = member[i];
      if (state[a] === STRANDED && given[a] < room[a]) {
        searched = false;
        return;
      }
    }
    for (let i = mStart[j]; i < mStart[j + 1]; i++) {
      const y = member[i];
      if (given[y] > 0 && cost[k + y] < Number.POSITIVE_INFINITY) {
        lower(k + n + j, cost[k + y] - down(y), k + y, -1);
      }
    }
    settle();
  };
  while (freeTotal > 0) {
    while (heap.size > 0) {
      const a = heap.top();
      if (given[a] < room[a] && !full(agency[a])) break;
      state[a] = OUT;
      heap.pop();
    }
    const w = heap.size > 0 ? heap.top() : -1;
    if (anyFull) {
      if (!searched) {
        searchAgain();
        searched = true;
      }
      const z = bestStart();
      if (z >= 0 && (w < 0 || cost[k + z] < up(w) - EPS)) {
        if (!paths.augment(z)) {
          // no free lead reaches z after all: the search goes on behind it
          enqueue(k + z);
          settle();
          continue;
        }
        freeTotal--;
        // The swap moved leads only between agents no free lead reaches, so what free leads
        // reach (and the labels) stays as it was; the costs behind it changed: search again.
        applySwapPath(z);
        searched = false;
        continue;
      }
    }
    if (w < 0) break;
    if (paths.augment(w)) {
      freeTotal--;
      given[w]++;
      const j = agency[w];
      if (j >= 0) {
        used[j]++;
        if (full(j)) {
          anyFull = true;
          agencyFilled(j);
        }
      }
      if (given[w] < room[w] && !full(j)) heap.siftTop();
      else {
        state[w] = OUT;
        heap.pop();
      }
    } else {
      heap.pop();
      state[w] = STRANDED;
      stranded.push(w);
      if (searched && !full(agency[w])) {
        lower(k + w, up(w), -1, -1);
        settle();
      }
    }
  }
  return given;

  /** z has just taken a free lead (augment); its unit goes on along next[] to the sink */
  function applySwapPath(z: number): void {
    let v = k + z; // an agent holding one unit more than it passes on
    let taking = -1; // the edge whose lead the current agent takes (applied after it gives one)
    for (let guard = 0; guard <= V; guard++) {
      const a = v - k;
      const to = next[v];
      if (to === -1) {
        if (taking >= 0) paths.take(taking);
        given[a]++;
        if (agency[a] >= 0) {
          used[agency[a]]++;
          if (full(agency[a])) anyFull = true;
        }
        return;
      }
      if (to < k) {
        // a gives back a lead of class `to`, which the next agent takes
        paths.giveBack(nextEdge[v]);
        if (taking >= 0) paths.take(taking);
        taking = nextEdge[to];
        v = next[to];
        continue;
      }
      // to is a's agency: a takes the seat, the next member gives it back
      if (taking >= 0) paths.take(taking);
      taking = -1;
      given[a]++;
      const y = next[to] - k;
      given[y]--;
      v = k + y;
    }
    throw new Error('assignment solver: seat swap path does not end');
  }
}

/** A binary min-heap of (cost, agent) entries that grows as needed. */
class Starts {
  private cost = new Float64Array(64);
  private agent = new Int32Array(64);
  size = 0;
  clear(): void {
    this.size = 0;
  }
  topAgent(): number {
    return this.agent[0];
  }
  topCost(): number {
    return this.cost[0];
  }
  push(a: number, c: number): void {
    if (this.size === this.cost.length) {
      const cost = new Float64Array(2 * this.size);
      const agent = new Int32Array(2 * this.size);
      cost.set(this.cost);
      agent.set(this.agent);
      this.cost = cost;
      this.agent = agent;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.cost[p] <= c) break;
      this.cost[i] = this.cost[p];
      this.agent[i] = this.agent[p];
      i = p;
    }
    this.cost[i] = c;
    this.agent[i] = a;
  }
  pop(): void {
    const c = this.cost[--this.size];
    const a = this.agent[this.size];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) break;
      const r = l + 1;
      const child = r < this.size && this.cost[r] < this.cost[l] ? r : l;
      if (this.cost[child] >= c) break;
      this.cost[i] = this.cost[child];
      this.agent[i] = this.agent[child];
      i = child;
    }
    this.cost[i] = c;
    this.agent[i] = a;
  }
}
