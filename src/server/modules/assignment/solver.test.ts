import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxFlow, minConvexCost, quotaScale, roomOf } from './max-flow.test-helper';
import { type SolverResult, solveAssignment, solveWithTuning } from './solver';
import {
  isNewer,
  type LeadClass,
  leadList,
  type SolverAgent,
  type SolverLead,
} from './solver-graph';
import type { SolverTuning } from './solver-tuning';

// ---------------------------------------------------------------------------------------------
// Rule checks, straight from docs/domain.md, Assignment, against the solver's output only.
// ---------------------------------------------------------------------------------------------

interface Outcome {
  given: Map<number, SolverLead[]>; // agent id -> leads given this run
  total: number;
}

function collect(
  agents: SolverAgent[],
  classes: LeadClass[],
  result: SolverResult,
  broken: string[],
): Outcome {
  const leadById = new Map<number, { lead: SolverLead; cls: LeadClass }>();
  for (const cls of classes)
    for (const lead of leadList(cls.leads)) leadById.set(lead.id, { lead, cls });
  const agentIds = new Set(agents.map((a) => a.id));
  const seen = new Set<number>();
  const given = new Map<number, SolverLead[]>();
  let total = 0;
  for (const [agentId, leadIds] of result.byAgent) {
    if (!agentIds.has(agentId)) broken.push(`unknown agent ${agentId}`);
    if (leadIds.length === 0) broken.push(`empty entry for agent ${agentId}`);
    const leads: SolverLead[] = [];
    for (const id of leadIds) {
      const found = leadById.get(id);
      if (!found) {
        broken.push(`unknown lead ${id}`);
        continue;
      }
      // Rule 1: exclusive, and only to an agent the lead fits.
      if (seen.has(id)) broken.push(`lead ${id} given twice`);
      seen.add(id);
      if (!found.cls.fits.includes(agentId)) broken.push(`lead ${id} does not fit ${agentId}`);
      leads.push(found.lead);
    }
    given.set(agentId, leads);
    total += leads.length;
  }
  return { given, total };
}

/**
 * Checks rules 1, 3 and 4 (rule 2 needs the max-flow oracle) and returns what was given. The
 * violations are gathered and asserted once: an expect() per pair would dominate the run time.
 */
function checkRules(agents: SolverAgent[], classes: LeadClass[], result: SolverResult): Outcome {
  const broken: string[] = [];
  const outcome = collect(agents, classes, result, broken);
  const x = new Map<number, number>();
  const q = new Map<number, number>();
  /** the agent took all the room it had (quota or its own caps) */
  const full = new Map<number, boolean>();
  for (const agent of agents) {
    const got = outcome.given.get(agent.id)?.length ?? 0;
    // Rule 1: never past the quota, nothing at all for an agent already at or above it.
    // (and never past the room its weekly and monthly caps leave)
    if (got > roomOf(agent)) {
      broken.push(`agent ${agent.id} got ${got} with ${agent.assignedToday}/${agent.quota}`);
    }
    full.set(agent.id, got >= roomOf(agent));
    x.set(agent.id, agent.assignedToday + got);
    q.set(agent.id, agent.quota);
  }
  // Rule 1 with agencies: no agency past the room its daily cap leaves today.
  const capOf = new Map<number, number>(); // agent id -> its agency's room (capped agencies only)
  const agencyGot = new Map<number, number>();
  for (const agent of agents) {
    if (agent.agencyId == null || agent.agencyRoom == null) continue;
    capOf.set(agent.id, agent.agencyId);
    const got = outcome.given.get(agent.id)?.length ?? 0;
    agencyGot.set(agent.agencyId, (agencyGot.get(agent.agencyId) ?? 0) + got);
  }
  const agencyFull = (agencyId: number) =>
    (agencyGot.get(agencyId) ?? 0) >=
    (agents.find((a) => a.agencyId === agencyId)?.agencyRoom ?? Number.POSITIVE_INFINITY);
  for (const [agencyId, got] of agencyGot) {
    const room = agents.find((a) => a.agencyId === agencyId)?.agencyRoom ?? 0;
    if (got > Math.max(0, room)) broken.push(`agency ${agencyId} got ${got} with room ${room}`);
  }
  // A single move of a lead from A to B is possible unless it would put B's agency over its cap.
  const movable = (from: number, to: number) => {
    const agencyTo = capOf.get(to);
    return agencyTo === undefined || agencyTo === capOf.get(from) || !agencyFull(agencyTo);
  };
  const givenTo = new Map<number, number>(); // lead id -> agent id
  const oldestGiven = new Map<number, SolverLead>();
  for (const [agentId, leads] of outcome.given) {
    for (const l of leads) givenTo.set(l.id, agentId);
    if (leads.length > 0)
      oldestGiven.set(
        agentId,
        leads.reduce((o, l) => (isNewer(o, l) ? l : o)),
      );
  }

  for (const cls of classes) {
    const fits = [...new Set(cls.fits)].filter((id) => q.has(id));
    for (const lead of leadList(cls.leads)) {
      const owner = givenTo.get(lead.id);
      if (owner !== undefined) {
        // Rule 3: (x_B + 1) / q_B >= x_A / q_A for every B this lead fits that is under quota
        // (and whose agency could take it: under its cap, or A's own).
        const xa = x.get(owner)!;
        const qa = q.get(owner)!;
        for (const b of fits) {
          const xb = x.get(b)!;
          const qb = q.get(b)!;
          if (b === owner || xb >= qb || full.get(b) || !movable(owner, b)) continue;
          if ((xb + 1) * qa < xa * qb) {
            broken.push(
              `unfair: lead ${lead.id} to ${owner} (${xa}/${qa}) over ${b} (${xb}/${qb})`,
            );
          }
        }
      } else {
        // Rule 4: a lead left over is not newer than the oldest lead any agent it fits got.
        for (const b of fits) {
          const oldest = oldestGiven.get(b);
          if (oldest && isNewer(lead, oldest)) {
            broken.push(`stale: ${b} got lead ${oldest.id} while newer lead ${lead.id} stays`);
          }
        }
      }
    }
  }
  expect(broken.slice(0, 5)).toEqual([]);
  return outcome;
}

/** The design's objective, scaled: sum over agents of (a+1)/q + ... + x/q, times `scale`. */
function scaledCost(agents: SolverAgent[], outcome: Outcome, scale: number): number {
  let cost = 0;
  for (const agent of agents) {
    const got = outcome.given.get(agent.id)?.length ?? 0;
    for (let k = 1; k <= got; k++) cost += ((agent.assignedToday + k) * scale) / agent.quota;
  }
  return cost;
}

function ids(result: SolverResult, agentId: number): number[] {
  return result.byAgent.get(agentId) ?? [];
}

// ---------------------------------------------------------------------------------------------
// Random instances.
// ---------------------------------------------------------------------------------------------

interface Instance {
  agents: SolverAgent[];
  classes: LeadClass[];
}

function instance(maxAgents: number, maxClasses: number, maxLeads: number, maxQuota: number) {
  const agent = fc.integer({ min: 1, max: maxQuota }).chain((quota) =>
    fc.record({
      quota: fc.constant(quota),
      assignedToday: fc.oneof(
        fc.integer({ min: 0, max: quota + 2 }),
        fc.constant(0),
        fc.constant(quota),
      ),
      // the room the agent's weekly and monthly caps leave: mostly none
      periodRoom: fc.option(fc.integer({ min: 0, max: quota }), { nil: null, freq: 3 }),
    }),
  );
  return fc
    .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: maxAgents })
    .chain((agentIds) =>
      fc
        .record({
          agents: fc.tuple(...agentIds.map(() => agent)),
          classes: fc.array(
            fc.record({
              // Occasionally an id that is not an agent, and repeats: both must be ignored.
              fits: fc.array(fc.oneof(fc.constantFrom(...agentIds), fc.constant(999)), {
                maxLength: agentIds.length + 1,
              }),
              times: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: maxLeads }),
            }),
            { maxLength: maxClasses },
          ),
          leadIds: fc.shuffledSubarray(
            Array.from({ length: maxClasses * maxLeads }, (_, i) => i + 1),
            { minLength: maxClasses * maxLeads, maxLength: maxClasses * maxLeads },
          ),
        })
        .map(({ agents, classes, leadIds }): Instance => {
          let next = 0;
          return {
            agents: agentIds.map((id, i) => ({ id, ...agents[i] })),
            classes: classes.map((c) => ({
              fits: c.fits,
              leads: c.times
                .map((createdAt) => ({ id: leadIds[next++], createdAt }))
                .sort(newestFirst),
            })),
          };
        }),
    );
}

/**
 * Classes on a line, each agent fitting a window of them: re-routing chains get long, and
 * regions fill up one after another, which is what exercises the path search's labels.
 */
function lineInstance(maxAgents: number, maxClasses: number) {
  return fc
    .record({
      classCount: fc.integer({ min: 1, max: maxClasses }),
      agents: fc.array(
        fc.record({
          start: fc.nat(),
          width: fc.integer({ min: 1, max: 4 }),
          quota: fc.integer({ min: 1, max: 4 }),
          used: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 })),
        }),
        { minLength: 1, maxLength: maxAgents },
      ),
      leadCounts: fc.array(fc.integer({ min: 0, max: 5 }), {
        minLength: maxClasses,
        maxLength: maxClasses,
      }),
      times: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 80, maxLength: 80 }),
    })
    .map(({ classCount, agents, leadCounts, times }): Instance => {
      let leadId = 0;
      return {
        agents: agents.map((a, i) => ({ id: i + 1, quota: a.quota, assignedToday: a.used })),
        classes: Array.from({ length: classCount }, (_, c) => ({
          fits: agents.flatMap((a, i) => {
            const from = a.start % classCount;
            return c >= from && c < from + a.width ? [i + 1] : [];
          }),
          leads: Array.from({ length: leadCounts[c] }, () => {
            leadId++;
            return { id: leadId, createdAt: times[leadId % times.length] };
          }).sort(newestFirst),
        })),
      };
    });
}

/**
 * The same instances with agencies: each agent in one of up to three agencies or none, each
 * agency with a daily cap's room left (0 included) or no cap.
 */
function agencyInstance(base: fc.Arbitrary<Instance>) {
  return base.chain((inst) =>
    fc
      .record({
        agencyOf: fc.array(fc.constantFrom(null, 1, 2, 3), {
          minLength: inst.agents.length,
          maxLength: inst.agents.length,
        }),
        rooms: fc.array(fc.option(fc.integer({ min: 0, max: 6 }), { nil: null, freq: 5 }), {
          minLength: 3,
          maxLength: 3,
        }),
      })
      .map(
        ({ agencyOf, rooms }): Instance => ({
          classes: inst.classes,
          agents: inst.agents.map((a, i) => {
            const agencyId = agencyOf[i];
            return agencyId === null ? a : { ...a, agencyId, agencyRoom: rooms[agencyId - 1] };
          }),
        }),
      ),
  );
}

const TUNINGS: SolverTuning[] = [
  { relabelBudget: 0, gapRule: true }, // exact labels recomputed after every relabel
  { relabelBudget: 0, gapRule: false },
  { relabelBudget: Number.POSITIVE_INFINITY, gapRule: true }, // never recomputed
  { relabelBudget: Number.POSITIVE_INFINITY, gapRule: false }, // only the length limit
];

/** Per-agent counts and the set of leads given: what any correct tuning must agree on. */
function shape(result: SolverResult): { counts: [number, number][]; leads: number[] } {
  return {
    counts: [...result.byAgent]
      .map(([id, leads]): [number, number] => [id, leads.length])
      .sort((a, b) => a[0] - b[0]),
    leads: [...result.byAgent.values()].flat().sort((a, b) => a - b),
  };
}

/** A small seeded generator of integers in [0, n) (an LCG; its upper bits are fine here). */
function randomInts(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  };
}

function newestFirst(a: SolverLead, b: SolverLead): number {
  return b.createdAt - a.createdAt || b.id - a.id;
}

function clone(inst: Instance): Instance {
  return structuredClone(inst);
}

describe('solveAssignment: properties on random instances', () => {
  it('satisfies rules 1-4, is maximal (Dinic) and minimises the fairness objective', () => {
    fc.assert(
      fc.property(instance(6, 6, 5, 6), ({ agents, classes }) => {
        const result = solveAssignment(agents, classes);
        const outcome = checkRules(agents, classes, result);
        expect(outcome.total).toBe(maxFlow(agents, classes));
        const best = minConvexCost(agents, classes);
        expect(best.flow).toBe(outcome.total);
        expect(scaledCost(agents, outcome, quotaScale(agents))).toBe(best.cost);
      }),
      { numRuns: 400 },
    );
  });

  it('holds on denser instances with scarce capacity and many classes', () => {
    fc.assert(
      fc.property(instance(10, 14, 6, 4), ({ agents, classes }) => {
        const outcome = checkRules(agents, classes, solveAssignment(agents, classes));
        expect(outcome.total).toBe(maxFlow(agents, classes));
        expect(scaledCost(agents, outcome, quotaScale(agents))).toBe(
          minConvexCost(agents, classes).cost,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('holds on line-shaped instances, and the search tuning changes nothing but speed', () => {
    fc.assert(
      fc.property(fc.oneof(lineInstance(12, 15), instance(10, 14, 6, 4)), ({ agents, classes }) => {
        const reference = solveAssignment(agents, classes);
        const outcome = checkRules(agents, classes, reference);
        expect(outcome.total).toBe(maxFlow(agents, classes));
        const best = minConvexCost(agents, classes).cost;
        expect(scaledCost(agents, outcome, quotaScale(agents))).toBe(best);
        for (const tuning of TUNINGS) {
          const result = solveWithTuning(agents, classes, tuning);
          checkRules(agents, classes, result);
          expect(shape(result)).toEqual(shape(reference));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with agencies and daily caps: at the max-flow bound, no agency over its cap, fair', () => {
    let binding = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          agencyInstance(instance(6, 6, 5, 6)),
          agencyInstance(instance(10, 14, 6, 4)),
          agencyInstance(lineInstance(12, 15)),
        ),
        ({ agents, classes }) => {
          const outcome = checkRules(agents, classes, solveAssignment(agents, classes));
          const bound = maxFlow(agents, classes);
          expect(outcome.total).toBe(bound);
          const uncapped = agents.map(({ agencyRoom: _, ...a }) => a);
          if (maxFlow(uncapped, classes) > bound) binding++;
          expect(scaledCost(agents, outcome, quotaScale(agents))).toBe(
            minConvexCost(agents, classes).cost,
          );
        },
      ),
      { numRuns: 400 },
    );
    // the caps did cut the flow in a good share of the instances
    expect(binding).toBeGreaterThan(40);
  });

  it('is deterministic, leaves its input alone and accepts leads in any order', () => {
    fc.assert(
      fc.property(instance(6, 6, 5, 6), fc.integer(), ({ agents, classes }, seed) => {
        const before = clone({ agents, classes });
        const first = solveAssignment(agents, classes);
        expect({ agents, classes }).toEqual(before);
        expect(solveAssignment(clone(before).agents, clone(before).classes)).toEqual(first);
        // Same leads, scrambled inside each class: same outcome.
        const rand = randomInts(seed);
        const scrambled = clone(before).classes.map((c) => ({
          fits: c.fits,
          leads: leadList(c.leads)
            .map((lead) => ({ lead, key: rand(1000) }))
            .sort((a, b) => a.key - b.key)
            .map(({ lead }) => lead),
        }));
        expect(solveAssignment(before.agents, scrambled)).toEqual(first);
      }),
      { numRuns: 100 },
    );
  });

  it('holds on a medium instance where augmenting paths and saturation matter', () => {
    // A few hundred agents, a thousand classes, scarce leads: forces long re-routing chains.
    const rand = randomInts(42);
    for (const [shapeName, leadsPerClass] of [
      ['random', 1],
      ['random', 3],
      ['random', 8],
      ['line', 1],
      ['line', 4],
      ['line', 12],
    ] as const) {
      const agents: SolverAgent[] = Array.from({ length: 300 }, (_, i) => {
        const quota = 1 + rand(12);
        return { id: i + 1, quota, assignedToday: rand(4) === 0 ? rand(quota + 2) : 0 };
      });
      const windows = agents.map(() => [rand(1000), 1 + rand(30)]);
      let leadId = 1;
      const classes: LeadClass[] = Array.from({ length: 1000 }, (_, c) => {
        const fits =
          shapeName === 'random'
            ? Array.from({ length: 1 + rand(6) }, () => 1 + rand(300))
            : agents
                .filter((_, i) => c >= windows[i][0] && c < windows[i][0] + windows[i][1])
                .map((a) => a.id);
        // Hot spots: a few stretches of classes get many more leads than the rest.
        const hot = shapeName === 'line' && c % 200 < 20 ? 5 : 1;
        const leads = Array.from({ length: rand(leadsPerClass * hot + 1) }, () => ({
          id: leadId++,
          createdAt: rand(50),
        })).sort(newestFirst);
        return { fits, leads };
      });
      const flow = maxFlow(agents, classes);
      expect(flow).toBeGreaterThan(0);
      const reference = solveAssignment(agents, classes);
      expect(checkRules(agents, classes, reference).total).toBe(flow);
      for (const tuning of TUNINGS.slice(0, 3)) {
        const result = solveWithTuning(agents, classes, tuning);
        expect(checkRules(agents, classes, result).total).toBe(flow);
        expect(shape(result)).toEqual(shape(reference));
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-made cases.
// ---------------------------------------------------------------------------------------------

describe('solveAssignment: hand-made cases', () => {
  it('escapes the greedy trap: A fits {TX, FL}, B only {TX}; both leads go out, B gets TX', () => {
    const agents = [
      { id: 1, quota: 1, assignedToday: 0 }, // A, served first on the id tie-break
      { id: 2, quota: 1, assignedToday: 0 }, // B
    ];
    const tx: LeadClass = { fits: [1, 2], leads: [{ id: 10, createdAt: 5 }] };
    const fl: LeadClass = { fits: [1], leads: [{ id: 20, createdAt: 5 }] };
    for (const classes of [
      [tx, fl],
      [fl, tx],
    ]) {
      const result = solveAssignment(agents, classes);
      expect(ids(result, 1)).toEqual([20]);
      expect(ids(result, 2)).toEqual([10]);
    }
  });

  it('re-routes along a longer augmenting path', () => {
    // Agent 1 fits c1, c2; agent 2 fits c2, c3; agent 3 fits c1 only. One lead per class.
    const agents = [1, 2, 3].map((id) => ({ id, quota: 1, assignedToday: 0 }));
    const classes: LeadClass[] = [
      { fits: [1, 3], leads: [{ id: 101, createdAt: 1 }] },
      { fits: [1, 2], leads: [{ id: 102, createdAt: 1 }] },
      { fits: [2], leads: [{ id: 103, createdAt: 1 }] },
    ];
    const result = solveAssignment(agents, classes);
    expect(ids(result, 1)).toEqual([102]);
    expect(ids(result, 2)).toEqual([103]);
    expect(ids(result, 3)).toEqual([101]);
  });

  it('gives nothing to an agent whose quota is used up today, or exceeded', () => {
    const agents = [
      { id: 1, quota: 3, assignedToday: 3 },
      { id: 2, quota: 3, assignedToday: 5 }, // an admin went over the quota by hand
      { id: 3, quota: 2, assignedToday: 1 },
    ];
    const leads = [5, 4, 3, 2, 1].map((t) => ({ id: t, createdAt: t }));
    const result = solveAssignment(agents, [{ fits: [1, 2, 3], leads }]);
    expect(result.byAgent.has(1)).toBe(false);
    expect(result.byAgent.has(2)).toBe(false);
    expect(ids(result, 3)).toEqual([5]); // one left under its quota of 2, and the newest lead
  });

  it('shares by quota: quotas 10 and 20 over 15 shared leads get 5 and 10', () => {
    const agents = [
      { id: 7, quota: 10, assignedToday: 0 },
      { id: 8, quota: 20, assignedToday: 0 },
    ];
    const leads = Array.from({ length: 15 }, (_, i) => ({ id: 100 - i, createdAt: 1000 - i }));
    const result = solveAssignment(agents, [{ fits: [7, 8], leads }]);
    expect(ids(result, 7)).toHaveLength(5);
    expect(ids(result, 8)).toHaveLength(10);
  });

  it('breaks ties in priority by the lower agent id', () => {
    // Equal (x + 1) / q (1/4 and 2/8): the lower id goes first, whatever the input order.
    const agents = [
      { id: 9, quota: 8, assignedToday: 1 },
      { id: 3, quota: 4, assignedToday: 0 },
    ];
    const lead = { fits: [9, 3], leads: [{ id: 1, createdAt: 1 }] };
    expect([...solveAssignment(agents, [lead]).byAgent]).toEqual([[3, [1]]]);
    expect([...solveAssignment([...agents].reverse(), [lead]).byAgent]).toEqual([[3, [1]]]);
  });

  it('counts leads the agents already have today', () => {
    // Agent 1 already has 4 of 10, agent 2 none of 10: 6 shared leads make it 5 and 5.
    const agents = [
      { id: 1, quota: 10, assignedToday: 4 },
      { id: 2, quota: 10, assignedToday: 0 },
    ];
    const leads = Array.from({ length: 6 }, (_, i) => ({ id: 10 - i, createdAt: 10 - i }));
    const result = solveAssignment(agents, [{ fits: [1, 2], leads }]);
    expect(ids(result, 1)).toHaveLength(1);
    expect(ids(result, 2)).toHaveLength(5);
  });

  it('keeps leads fresh across classes', () => {
    // One slot: the newer lead of the other class wins.
    const one = solveAssignment(
      [{ id: 1, quota: 1, assignedToday: 0 }],
      [
        { fits: [1], leads: [{ id: 11, createdAt: 100 }] },
        { fits: [1], leads: [{ id: 22, createdAt: 200 }] },
      ],
    );
    expect(ids(one, 1)).toEqual([22]);

    // Agent 1 fits c1 and c2, agent 2 only c1; c1 has leads at 5 and 1, c2 one at 3. Agent 2
    // must get c1's lead at 5, and agent 1 the lead at 3, not the stale one at 1.
    const agents = [1, 2].map((id) => ({ id, quota: 1, assignedToday: 0 }));
    const classes: LeadClass[] = [
      {
        fits: [1, 2],
        leads: [
          { id: 15, createdAt: 5 },
          { id: 11, createdAt: 1 },
        ],
      },
      { fits: [1], leads: [{ id: 23, createdAt: 3 }] },
    ];
    const two = solveAssignment(agents, classes);
    expect(ids(two, 1)).toEqual([23]);
    expect(ids(two, 2)).toEqual([15]);

    // Same createdAt: the higher id counts as newer.
    const tie = solveAssignment(
      [{ id: 1, quota: 2, assignedToday: 0 }],
      [
        { fits: [1], leads: [{ id: 3, createdAt: 7 }] },
        {
          fits: [1],
          leads: [
            { id: 9, createdAt: 7 },
            { id: 1, createdAt: 7 },
          ],
        },
      ],
    );
    expect(ids(tie, 1)).toEqual([9, 3]);
  });

  it('hands newest leads out first within a class and lists them newest first', () => {
    const leads = Array.from({ length: 10 }, (_, i) => ({ id: 50 - i, createdAt: 500 - i * 10 }));
    const result = solveAssignment([{ id: 4, quota: 3, assignedToday: 0 }], [{ fits: [4], leads }]);
    expect(ids(result, 4)).toEqual([50, 49, 48]);
  });

  it('ignores unknown agents in fits, repeated ids, empty classes and empty input', () => {
    expect(solveAssignment([], []).byAgent.size).toBe(0);
    expect(solveAssignment([{ id: 1, quota: 5, assignedToday: 0 }], []).byAgent.size).toBe(0);
    const result = solveAssignment(
      [{ id: 1, quota: 5, assignedToday: 0 }],
      [
        { fits: [42, 1, 1, 1], leads: [{ id: 8, createdAt: 1 }] },
        { fits: [1], leads: [] },
        { fits: [42], leads: [{ id: 9, createdAt: 2 }] },
      ],
    );
    expect([...result.byAgent]).toEqual([[1, [8]]]);
  });

  it('rejects duplicate agent ids', () => {
    const agent = { id: 1, quota: 1, assignedToday: 0 };
    expect(() => solveAssignment([agent, { ...agent }], [])).toThrow(/duplicate agent id 1/);
  });
});
