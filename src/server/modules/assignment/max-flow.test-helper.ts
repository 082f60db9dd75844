/**
 * Test-only oracles for the assignment solver, written independently of solver.ts: they work on
 * the lead-level graph source -> lead (cap 1) -> agent (fits) -> sink (cap max(0, q - a)); an agent
 * of an agency with a cap goes to the sink through its agency's node (cap: the agency's room).
 *
 * - maxFlow: Dinic's algorithm; the size of a maximum assignment.
 * - minConvexCost: successive shortest paths (Bellman-Ford) where the agent's k-th unit this run
 *   costs (a + k) / q, scaled by a common multiple of the quotas to stay in integers; the least
 *   total cost over maximum assignments, i.e. the optimum of the fairness objective of docs/domain.md, Assignment.
 */
import { leadCount as countOf, type LeadClass, leadList, type SolverAgent } from './solver-graph';

interface Graph {
  nodes: number;
  to: number[];
  cap: number[];
  cost: number[];
  head: number[][];
}

function newGraph(nodes: number): Graph {
  return { nodes, to: [], cap: [], cost: [], head: Array.from({ length: nodes }, () => []) };
}

function addEdge(g: Graph, u: number, v: number, cap: number, cost = 0): void {
  g.head[u].push(g.to.length);
  g.to.push(v);
  g.cap.push(cap);
  g.cost.push(cost);
  g.head[v].push(g.to.length);
  g.to.push(u);
  g.cap.push(0);
  g.cost.push(-cost);
}

/** Node layout: 0 source, 1 sink, then leads, then agents, then capped agencies. */
function leadGraph(
  agents: SolverAgent[],
  classes: LeadClass[],
  sinkEdges: (g: Graph, agentNode: number, agent: SolverAgent, sink: number) => void,
): Graph {
  const leadCount = classes.reduce((sum, c) => sum + countOf(c.leads), 0);
  const agencyNode = new Map<number, number>();
  const agencyRoom: number[] = [];
  for (const agent of agents) {
    if (agent.agencyId == null || agent.agencyRoom == null || agencyNode.has(agent.agencyId))
      continue;
    agencyNode.set(agent.agencyId, 2 + leadCount + agents.length + agencyRoom.length);
    agencyRoom.push(agent.agencyRoom);
  }
  const g = newGraph(2 + leadCount + agents.length + agencyRoom.length);
  agencyRoom.forEach((room, j) => {
    if (room > 0) addEdge(g, 2 + leadCount + agents.length + j, 1, room);
  });
  const agentNode = new Map<number, number>();
  agents.forEach((agent, i) => {
    agentNode.set(agent.id, 2 + leadCount + i);
    const sink = (agent.agencyId != null && agencyNode.get(agent.agencyId)) || 1;
    sinkEdges(g, 2 + leadCount + i, agent, sink);
  });
  let leadNode = 2;
  for (const cls of classes) {
    const targets = [...new Set(cls.fits)].flatMap((id) => {
      const node = agentNode.get(id);
      return node === undefined ? [] : [node];
    });
    for (const _lead of leadList(cls.leads)) {
      addEdge(g, 0, leadNode, 1);
      for (const t of targets) addEdge(g, leadNode, t, 1);
      leadNode++;
    }
  }
  return g;
}

/** What an agent may still take: its quota left today, bounded by its weekly and monthly caps. */
export function roomOf(agent: SolverAgent): number {
  return Math.max(
    0,
    Math.min(agent.quota - agent.assignedToday, agent.periodRoom ?? Number.POSITIVE_INFINITY),
  );
}

/** Size of a maximum assignment (Dinic). */
export function maxFlow(agents: SolverAgent[], classes: LeadClass[]): number {
  const g = leadGraph(agents, classes, (graph, node, agent, sink) => {
    const room = roomOf(agent);
    if (room > 0) addEdge(graph, node, sink, room);
  });
  const level = new Array<number>(g.nodes);
  const iter = new Array<number>(g.nodes);
  const bfs = (): boolean => {
    level.fill(-1);
    level[0] = 0;
    const queue = [0];
    for (let i = 0; i < queue.length; i++) {
      const u = queue[i];
      for (const e of g.head[u]) {
        if (g.cap[e] > 0 && level[g.to[e]] < 0) {
          level[g.to[e]] = level[u] + 1;
          queue.push(g.to[e]);
        }
      }
    }
    return level[1] >= 0;
  };
  // Blocking-flow DFS with an explicit stack (paths are at most 4 edges long here anyway).
  const dfs = (): number => {
    const path: number[] = [];
    let u = 0;
    for (;;) {
      if (u === 1) {
        let push = Number.POSITIVE_INFINITY;
        for (const e of path) push = Math.min(push, g.cap[e]);
        for (const e of path) {
          g.cap[e] -= push;
          g.cap[e ^ 1] += push;
        }
        return push;
      }
      let advanced = false;
      while (iter[u] < g.head[u].length) {
        const e = g.head[u][iter[u]];
        const v = g.to[e];
        if (g.cap[e] > 0 && level[v] === level[u] + 1) {
          path.push(e);
          u = v;
          advanced = true;
          break;
        }
        iter[u]++;
      }
      if (advanced) continue;
      if (path.length === 0) return 0;
      level[u] = -1; // dead end
      const e = path.pop()!;
      u = g.to[e ^ 1];
      iter[u]++;
    }
  };
  let total = 0;
  while (bfs()) {
    iter.fill(0);
    for (let f = dfs(); f > 0; f = dfs()) total += f;
  }
  return total;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Common multiple of the quotas: the cost scale that makes every (a + k) / q an integer. */
export function quotaScale(agents: SolverAgent[]): number {
  return agents.reduce((l, agent) => (l / gcd(l, agent.quota)) * agent.quota, 1);
}

/**
 * Maximum assignment of least total scaled cost, where the k-th lead an agent gets this run
 * costs (assignedToday + k) * scale / quota. Returns the flow and that cost.
 */
export function minConvexCost(
  agents: SolverAgent[],
  classes: LeadClass[],
): { flow: number; cost: number } {
  const scale = quotaScale(agents);
  const g = leadGraph(agents, classes, (graph, node, agent, sink) => {
    for (let k = 1; k <= roomOf(agent); k++) {
      addEdge(graph, node, sink, 1, ((agent.assignedToday + k) * scale) / agent.quota);
    }
  });
  let flow = 0;
  let cost = 0;
  for (;;) {
    const dist = new Array<number>(g.nodes).fill(Number.POSITIVE_INFINITY);
    const via = new Array<number>(g.nodes).fill(-1);
    dist[0] = 0;
    for (let round = 0; round < g.nodes; round++) {
      let changed = false;
      for (let u = 0; u < g.nodes; u++) {
        if (dist[u] === Number.POSITIVE_INFINITY) continue;
        for (const e of g.head[u]) {
          if (g.cap[e] > 0 && dist[u] + g.cost[e] < dist[g.to[e]]) {
            dist[g.to[e]] = dist[u] + g.cost[e];
            via[g.to[e]] = e;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
    if (dist[1] === Number.POSITIVE_INFINITY) return { flow, cost };
    for (let v = 1; v !== 0; v = g.to[via[v] ^ 1]) {
      g.cap[via[v]] -= 1;
      g.cap[via[v] ^ 1] += 1;
    }
    flow += 1;
    cost += dist[1];
  }
}
