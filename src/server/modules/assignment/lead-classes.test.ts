import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeadCategory } from '../../../shared/domain';
import type { AgentProfile } from './eligibility';
import { ageBucket, buildClasses, type LeadGroup } from './lead-classes';
import { leadList } from './solver-graph';

const agent = (over: Partial<AgentProfile>): AgentProfile => ({
  id: 1,
  category: 'MEDICARE',
  quota: 5,
  assignedToday: 0,
  agencyId: null,
  agencyRoom: null,
  periodRoom: null,
  states: [],
  cities: [],
  ageMin: null,
  ageMax: null,
  ...over,
});

let nextId = 1;
const group = (over: Partial<LeadGroup>, n = 1): LeadGroup => ({
  category: 'MEDICARE',
  state: 'TX',
  city: 'austin',
  age: 65,
  leads: Array.from({ length: n }, (_, i) => ({ id: nextId++, createdAt: 1000 - i })),
  ...over,
});

describe('ageBucket', () => {
  it('puts ages between the same bounds in the same bucket', () => {
    const breaks = [30, 65]; // ranges starting at 30 or ending at 64
    expect([18, 29, 30, 64, 65, 120].map((a) => ageBucket(breaks, a))).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('buildClasses', () => {
  it('merges leads no agent can tell apart into one class, newest first', () => {
    const agents = [agent({ id: 1 }), agent({ id: 2, states: ['TX', 'FL'] })];
    const classes = buildClasses(agents, [
      group({ state: 'TX', city: 'austin', age: 70 }),
      group({ state: 'FL', city: 'miami', age: 40 }),
      group({ state: 'CA', city: 'fresno', age: 40 }),
    ]);
    // TX and FL fit both agents: one class; CA fits agent 1 only
    expect(classes.map((c) => [c.fits, leadList(c.leads).length])).toEqual([
      [[1, 2], 2],
      [[1], 1],
    ]);
    const [both] = classes;
    expect(leadList(both.leads)[0].createdAt).toBeGreaterThanOrEqual(
      leadList(both.leads)[1].createdAt,
    );
  });

  it('leaves out leads that fit no agent with quota left, and categories nobody takes', () => {
    const classes = buildClasses(
      [agent({ id: 1, quota: 2, assignedToday: 2 }), agent({ id: 2, category: 'ACA' })],
      [group({}), group({ category: 'ACA' }), group({ category: 'FINAL_EXPENSE' })],
    );
    expect(classes.map((c) => c.fits)).toEqual([[2]]);
  });

  it('matches what a lead-by-lead check of every agent gives, on random instances', () => {
    const categories: LeadCategory[] = ['MEDICARE', 'ACA'];
    const agentArb = fc.record({
      category: fc.option(fc.constantFrom(...categories), { nil: null, freq: 6 }),
      quota: fc.integer({ min: 1, max: 3 }),
      assignedToday: fc.integer({ min: 0, max: 3 }),
      states: fc.subarray(['TX', 'FL', 'CA'], { maxLength: 2 }),
      cities: fc.subarray(['austin', 'miami', 'el paso'], { maxLength: 2 }),
      ageMin: fc.option(fc.constantFrom(30, 50, 65), { nil: null }),
      ageMax: fc.option(fc.constantFrom(40, 64, 80), { nil: null }),
    });
    const groupArb = fc.record({
      category: fc.constantFrom(...categories),
      state: fc.constantFrom('TX', 'FL', 'CA', 'NY'),
      city: fc.constantFrom('austin', 'miami', 'el paso', 'dallas'),
      age: fc.integer({ min: 18, max: 90 }),
      size: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(agentArb, { maxLength: 6 }),
        fc.array(groupArb, { maxLength: 12 }),
        (rawAgents, rawGroups) => {
          const agents = rawAgents.map((a, i) => ({
            ...a,
            id: i + 1,
            agencyId: null,
            agencyRoom: null,
            periodRoom: null,
          }));
          let id = 0;
          const groups: LeadGroup[] = rawGroups.map((g) => ({
            category: g.category,
            state: g.state,
            city: g.city,
            age: g.age,
            leads: Array.from({ length: g.size }, () => ({ id: ++id, createdAt: 1_000 - id })),
          }));
          const fitsOf = (g: LeadGroup) =>
            agents
              .filter(
                (a) =>
                  a.category === g.category &&
                  a.quota > a.assignedToday &&
                  (a.states.length === 0 || a.states.includes(g.state)) &&
                  (a.cities.length === 0 || a.cities.includes(g.city)) &&
                  (a.ageMin === null || g.age >= a.ageMin) &&
                  (a.ageMax === null || g.age <= a.ageMax),
              )
              .map((a) => a.id);
          const expected = new Map<number, string>();
          for (const g of groups) {
            const fits = fitsOf(g);
            if (fits.length > 0)
              for (const l of leadList(g.leads)) expected.set(l.id, fits.join(','));
          }
          const classes = buildClasses(agents, groups);
          const actual = new Map<number, string>();
          for (const c of classes) {
            const leads = leadList(c.leads);
            for (let i = 1; i < leads.length; i++) {
              expect(leads[i - 1].createdAt).toBeGreaterThan(leads[i].createdAt);
            }
            for (const l of leads) {
              expect(actual.has(l.id)).toBe(false);
              actual.set(l.id, c.fits.join(','));
            }
          }
          expect(actual).toEqual(expected);
          // one class per distinct set of fits
          expect(new Set(classes.map((c) => c.fits.join(','))).size).toBe(classes.length);
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});
