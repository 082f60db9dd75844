/**
 * The in-memory solver of the assignment engine (docs/domain.md, Assignment). Pure: no I/O, no clock,
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
 *
 * An agency's daily cap (agents' agencyId and agencyRoom) bounds the sum of its members' units:
 * when it can bind, phase 1 is solved on the network with a node per agency between its members
 * and the sink (capped-counts.ts); phase 2 only realises the counts, which respect the caps.
 */

import { Augmenter, INF } from './augmenting-paths';
import { capsCanBind, solveCappedCounts } from './capped-counts';
import { Heap } from './heap';
import { buildGraph, type Graph, type LeadClass, type SolverAgent } from './solver-graph';
import { DEFAULT_TUNING, type SolverTuning } from './solver-tuning';

export interface SolverResult {
  /** Agent id -> lead ids given this run, newest first. Agents given nothing are absent. */
  byAgent: Map<number, number[]>;
}

/**
 * Assigns leads to agents (the four run rules of docs/domain.md, Assignment).
 *
 * Preconditions, which the DB layer guarantees: agent ids are unique (a repeat throws), each lead
 * id appears in one class only, quota and assignedToday are integers. Ids in `fits` that are not
 * in `agents` are ignored, and so are repeated ones. A class whose leads are not newest first is
 * sorted on a copy. The input is never modified.
 */
export function solveAssignment(agents: SolverAgent[], classes: LeadClass[]): SolverResult {
  return solveWithTuning(agents, classes, DEFAULT_TUNING);
}

/** solveAssignment with explicit tuning; for tests. */
export function solveWithTuning(
  agents: SolverAgent[],
  classes: LeadClass[],
  tuning: SolverTuning,
): SolverResult {
  const g = buildGraph(agents, classes);
  const flow = new Int32Array(g.m);
  // an agency's cap that can bind needs the network with agency nodes (capped-counts.ts)
  const given = capsCanBind(g, g.caps)
    ? solveCappedCounts(g, g.caps, flow, tuning)
    : solveCounts(g, flow, tuning);
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
    {
      roots: byAgent,
      sinks: byClass,
      rootOfEdge: eAgent,
      sinkOfEdge: eClass,
      flow,
      capacity: free,
      agentsAreRoots: true,
      held: room,
    },
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
    {
      roots: byClass,
      sinks: byAgent,
      rootOfEdge: eClass,
      sinkOfEdge: eAgent,
      flow,
      capacity: room,
      agentsAreRoots: false,
      held: given,
    },
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
