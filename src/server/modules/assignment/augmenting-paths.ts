import type { SolverTuning } from './solver-tuning';

export const INF = 0x3fffffff;

/** One side's adjacency: node x's edges are edge[start[x]..start[x+1]], reaching nbr[...]. */
export interface Adjacency {
  start: Int32Array;
  edge: Int32Array;
  nbr: Int32Array;
}

/** What the path search runs over: roots on side P, sinks on side Q, and the flow between. */
export interface PathNetwork {
  /** side P: the roots' adjacency */
  roots: Adjacency;
  /** side Q: the sinks' adjacency */
  sinks: Adjacency;
  /** the P end and the Q end of each edge */
  rootOfEdge: Int32Array;
  sinkOfEdge: Int32Array;
  /** units on each edge (all zero at the start) */
  flow: Int32Array;
  /** units each q can still absorb */
  capacity: Int32Array;
  /** which side the agents are on */
  agentsAreRoots: boolean;
  /** per agent: the most units it can hold */
  held: Int32Array;
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
export class Augmenter {
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

  private readonly np: number;
  private readonly nq: number;
  private readonly P: Adjacency;
  private readonly Q: Adjacency;
  private readonly eP: Int32Array;
  private readonly eQ: Int32Array;
  private readonly flow: Int32Array;
  private readonly sink: Int32Array;
  private readonly agentsArePs: boolean;
  private readonly tuning: SolverTuning;

  /** `network.flow` must be all zero. */
  constructor(network: PathNetwork, tuning: SolverTuning) {
    const { roots: P, sinks: Q, flow, capacity, agentsAreRoots, held } = network;
    this.np = P.start.length - 1;
    this.nq = Q.start.length - 1;
    this.P = P;
    this.Q = Q;
    this.eP = network.rootOfEdge;
    this.eQ = network.sinkOfEdge;
    this.flow = flow;
    this.sink = capacity;
    this.agentsArePs = agentsAreRoots;
    this.tuning = tuning;
    const { np, nq } = this;
    const eP = this.eP;
    const eQ = this.eQ;
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
    this.agentOf = agentsAreRoots ? eP : eQ;
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

  /** One more unit on edge e, made by the caller (the held lists follow). */
  take(e: number): void {
    this.add(e);
  }

  /** One unit less on edge e, made by the caller. */
  giveBack(e: number): void {
    this.remove(e);
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
