/**
 * Phase 1 of the solver when an agency's daily cap can bind (docs/decisions/028): how many leads
 * each agent gets, over the network
 *
 *   source -> class (its free leads) -> agent it fits -> agency (cap left today) -> sink
 *                                                    \-> sink (no agency, or no cap)
 *
 * The greedy of solveCounts relies on the agents' feasible counts forming a polymatroid; an
 * agency's cap breaks that (an agent served early can fill its agency and strand a lead only an
 * outsider could take, which the greedy never undoes), so here the same objective is minimised
 * by successive shortest paths: each unit goes along the cheapest path from a free lead to the
 * sink, where an agent's k-th unit costs (a + k) / q and giving one back earns that much. Such a
 * path may move a unit off one member onto another of the same agency so that an outsider can
 * take a lead. Starting from no flow with convex costs, the flow after every step is the
 * cheapest of its size, so the last is maximal (the max-flow bound with the caps) and fair
 * (sum of (a + 1) / q + ... + x / q least among maximal ones). Dijkstra with potentials
 * (reduced costs stay non-negative); a path costs O(edges log nodes), one per unit, so it runs
 * only for the categories where some cap can bind.
 */
import { Heap } from './heap';
import type { Graph } from './solver-graph';

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

/** Returns given[a], leaving one feasible spread of those units in `flow`. */
export function solveCappedCounts(g: Graph, caps: AgencyCaps, flow: Int32Array): Int32Array {
  const { n, k, cStart, eAgent, aStart, aEdge, aClass, lStart, quota, base, room } = g;
  const J = caps.room.length;
  // nodes: classes 0..k-1, agents k..k+n-1, agencies k+n..k+n+J-1, sink T, source S
  const T = k + n + J;
  const S = T + 1;
  const V = S + 1;
  const free = new Int32Array(k);
  for (let c = 0; c < k; c++) free[c] = lStart[c + 1] - lStart[c];
  const given = new Int32Array(n);
  const used = new Int32Array(J);
  const members: number[][] = Array.from({ length: J }, () => []);
  for (let a = 0; a < n; a++) if (caps.agency[a] >= 0) members[caps.agency[a]].push(a);

  const pot = new Float64Array(V);
  const dist = new Float64Array(V);
  const done = new Uint8Array(V);
  const pred = new Int32Array(V); // previous node
  const predEdge = new Int32Array(V); // the class-agent edge used, or -1
  // a lazy heap of entries (node, its distance when pushed); stale entries are skipped. Every
  // residual arc pushes at most once per search.
  const capacity = 2 * g.m + k + 2 * n + 2 * J + 4;
  const entryNode = new Int32Array(capacity);
  const entryKey = new Float64Array(capacity);
  let entries = 0;
  const heap = new Heap(
    capacity,
    (x, y) =>
      entryKey[x] < entryKey[y] || (entryKey[x] === entryKey[y] && entryNode[x] < entryNode[y]),
  );
  const push = (v: number) => {
    entryNode[entries] = v;
    entryKey[entries] = dist[v];
    heap.push(entries++);
  };

  const up = (a: number) => (base[a] + given[a] + 1) / quota[a];
  const down = (a: number) => (base[a] + given[a]) / quota[a];

  for (;;) {
    dist.fill(Number.POSITIVE_INFINITY);
    done.fill(0);
    entries = 0;
    const relax = (u: number, v: number, cost: number, edge: number) => {
      if (done[v]) return;
      const reduced = Math.max(0, cost + pot[u] - pot[v]);
      const d = dist[u] + reduced;
      if (d < dist[v] - EPS) {
        dist[v] = d;
        pred[v] = u;
        predEdge[v] = edge;
        push(v);
      }
    };
    dist[S] = 0;
    push(S);
    while (heap.size > 0) {
      const u = entryNode[heap.top()];
      heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      if (u === T) break;
      if (u === S) {
        for (let c = 0; c < k; c++) if (free[c] > 0) relax(S, c, 0, -1);
      } else if (u < k) {
        for (let e = cStart[u]; e < cStart[u + 1]; e++) relax(u, k + eAgent[e], 0, e);
      } else if (u < k + n) {
        const a = u - k;
        // back to a class it holds a unit of (that unit moves elsewhere)
        for (let i = aStart[a]; i < aStart[a + 1]; i++) {
          if (flow[aEdge[i]] > 0) relax(u, aClass[i], 0, aEdge[i]);
        }
        if (given[a] < room[a]) {
          const j = caps.agency[a];
          relax(u, j >= 0 ? k + n + j : T, up(a), -1);
        }
      } else if (u < T) {
        const j = u - k - n;
        if (used[j] < caps.room[j]) relax(u, T, 0, -1);
        // a member gives a unit back to the agency, so another member may take one
        for (const a of members[j]) if (given[a] > 0) relax(u, k + a, -down(a), -1);
      }
    }
    heap.size = 0;
    if (!done[T]) break;
    const D = dist[T];
    for (let v = 0; v < V; v++) pot[v] += done[v] ? Math.min(dist[v], D) : D;
    // apply the path, sink to source
    for (let v = T; v !== S; v = pred[v]) {
      const u = pred[v];
      if (u === S) free[v]--;
      else if (u < k) flow[predEdge[v]]++;
      else if (u < k + n) {
        if (v < k) flow[predEdge[v]]--;
        else given[u - k]++;
      } else if (u < T) {
        if (v === T) used[u - k - n]++;
        else given[v - k]--;
      }
    }
  }
  return given;
}
