import { describe, expect, it } from 'vitest';
import { maxFlow, minConvexCost, quotaScale } from './max-flow.test-helper';
import { solveWithTuning } from './solver';
import type { LeadClass, SolverAgent } from './solver-graph';
import type { SolverTuning } from './solver-tuning';

/** mulberry32: a small seeded generator, so every run checks the same instances */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TUNINGS: SolverTuning[] = [
  { relabelBudget: 1, gapRule: true },
  { relabelBudget: 0, gapRule: true },
  { relabelBudget: 1e9, gapRule: false },
];

/** A seeded instance: agents in up to `agencies` agencies (or none), caps often binding. */
function instance(seed: number, maxAgents: number, maxClasses: number, agencies: number) {
  const rand = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const rooms = Array.from({ length: int(1, agencies) }, () => (rand() < 0.2 ? null : int(0, 6)));
  const agents: SolverAgent[] = [];
  for (let id = 1, n = int(2, maxAgents); id <= n; id++) {
    const quota = int(1, 6);
    const agencyId = rand() < 0.25 ? null : int(1, rooms.length);
    agents.push({
      id,
      quota,
      assignedToday: rand() < 0.3 ? int(0, quota) : 0,
      agencyId,
      agencyRoom: agencyId === null ? null : rooms[agencyId - 1],
    });
  }
  let leadId = 1;
  const classes: LeadClass[] = [];
  for (let c = 0, k = int(1, maxClasses); c < k; c++) {
    const leads = Array.from({ length: int(1, 5) }, () => ({ id: leadId, createdAt: leadId++ }));
    classes.push({ leads, fits: agents.filter(() => rand() < 0.45).map((a) => a.id) });
  }
  return { agents, classes };
}

/** Disagreements with the oracles (max flow with agency nodes, least convex cost), as text. */
function check(agents: SolverAgent[], classes: LeadClass[], tuning: SolverTuning): string | null {
  const got = new Map<number, number>();
  let total = 0;
  for (const [id, leads] of solveWithTuning(agents, classes, tuning).byAgent) {
    got.set(id, leads.length);
    total += leads.length;
  }
  const perAgency = new Map<number, number>();
  for (const a of agents) {
    if (a.agencyId == null || a.agencyRoom == null) continue;
    perAgency.set(a.agencyId, (perAgency.get(a.agencyId) ?? 0) + (got.get(a.id) ?? 0));
  }
  for (const a of agents) {
    if (a.agencyRoom != null && (perAgency.get(a.agencyId as number) ?? 0) > a.agencyRoom) {
      return `agency ${a.agencyId} over its cap`;
    }
  }
  const bound = maxFlow(agents, classes);
  if (total !== bound) return `${total} assigned, bound ${bound}`;
  const scale = quotaScale(agents);
  let cost = 0;
  for (const a of agents) {
    for (let k = 1; k <= (got.get(a.id) ?? 0); k++)
      cost += ((a.assignedToday + k) * scale) / a.quota;
  }
  const least = minConvexCost(agents, classes).cost;
  return Math.abs(cost - least) > 1e-6 ? `cost ${cost}, least ${least}` : null;
}

describe('phase 1 under agencies caps (seat swaps)', () => {
  // Seeded rather than shrunk: a seat swap path is needed in roughly one instance in thirty, and
  // the mistakes it can hide (a stale cost, a start that died) showed in one instance in a few
  // thousand, beyond the property test's 400 runs.
  it('reaches the max-flow bound at the least cost on 6,000 small instances, any tuning', () => {
    const wrong: string[] = [];
    for (let seed = 1; seed <= 6000; seed++) {
      const { agents, classes } =
        seed % 2 === 0 ? instance(seed, 9, 8, 3) : instance(seed, 14, 12, 4);
      const problem = check(agents, classes, TUNINGS[seed % TUNINGS.length]);
      if (problem) wrong.push(`seed ${seed}: ${problem}`);
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });
});

describe('phase 1 under agencies caps: cases the random ones found', () => {
  it('a stranded agent reached twice keeps its cheaper way to the sink', () => {
    // Agent 6 is stranded first (its way on costs 3/4 through agent 3's C1 lead), then agent 3;
    // the seat swap of agency 1 (4 takes C3, 5 gives C0 back to 3) must end with agent 6.
    const agents: SolverAgent[] = [
      { id: 1, quota: 3, assignedToday: 0, agencyId: 1, agencyRoom: 2 },
      { id: 2, quota: 4, assignedToday: 4 },
      { id: 3, quota: 5, assignedToday: 0, agencyId: 3, agencyRoom: 4 },
      { id: 4, quota: 2, assignedToday: 0, agencyId: 1, agencyRoom: 2 },
      { id: 5, quota: 3, assignedToday: 0, agencyId: 1, agencyRoom: 2 },
      { id: 6, quota: 4, assignedToday: 0, agencyId: 2, agencyRoom: 5 },
    ];
    const classes = lineOfClasses([
      [1, [1, 2, 3, 4, 5]],
      [4, [2, 3, 4, 6]],
      [1, [3, 4]],
      [2, [1, 4]],
      [3, [1, 4]],
    ]);
    expect(check(agents, classes, TUNINGS[0])).toBeNull();
  });

  it('goes on behind a start that no free lead reaches any more', () => {
    // Agent 3 looks like a start of agency 1 until agent 7's failed search finds it cut off;
    // the only way to the last C4 lead is then 6 -> agency 2 -> 1 -> C2 -> 3 -> agency 1 -> ...
    const agents: SolverAgent[] = [
      { id: 1, quota: 6, assignedToday: 0, agencyId: 2, agencyRoom: 3 },
      { id: 2, quota: 4, assignedToday: 0 },
      { id: 3, quota: 3, assignedToday: 0, agencyId: 1, agencyRoom: 6 },
      { id: 4, quota: 4, assignedToday: 0, agencyId: 1, agencyRoom: 6 },
      { id: 5, quota: 3, assignedToday: 3 },
      { id: 6, quota: 1, assignedToday: 0, agencyId: 2, agencyRoom: 3 },
      { id: 7, quota: 6, assignedToday: 0, agencyId: 1, agencyRoom: 6 },
      { id: 8, quota: 5, assignedToday: 0, agencyId: 1, agencyRoom: 6 },
    ];
    const classes = lineOfClasses([
      [1, [1, 2, 4, 6]],
      [3, [1, 2, 5, 8]],
      [4, [1, 3]],
      [2, [3, 6, 7]],
      [2, [6]],
    ]);
    for (const tuning of TUNINGS) expect(check(agents, classes, tuning)).toBeNull();
  });
});

/** Classes C0, C1, ... of the given sizes and fits, lead ids and times in order. */
function lineOfClasses(spec: [number, number[]][]): LeadClass[] {
  let leadId = 1;
  return spec.map(([size, fits]) => ({
    leads: Array.from({ length: size }, () => ({ id: leadId, createdAt: leadId++ })),
    fits,
  }));
}
