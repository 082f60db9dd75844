import { describe, expect, it } from 'vitest';
import type { EnrollmentWindows } from '../../config/env';
import { type AgentRow, effectiveStates, eligibleAgents } from './eligibility';

const WINDOWS: EnrollmentWindows = {
  MEDICARE: { start: '10-15', end: '12-07' },
  ACA: { start: '11-01', end: '01-15' },
};
const JUNE = {
  now: new Date('2026-06-15T14:00:00Z'),
  businessDate: '2026-06-15',
  windows: WINDOWS,
};

describe('eligibleAgents', () => {
  const row = (over: Partial<AgentRow>): AgentRow => ({
    id: 1,
    approved: true,
    category: 'MEDICARE',
    quota: 5,
    agencyId: null,
    agencySuspended: false,
    agencyCap: null,
    schedule: null,
    weeklyCap: null,
    monthlyCap: null,
    perLead: null,
    enrollmentOnly: false,
    states: [],
    cities: [],
    ageMin: null,
    ageMax: null,
    categories: [],
    licensedStates: [],
    disabled: false,
    pausedAt: null,
    pausedUntil: null,
    ...over,
  });

  it('drops enrollment-only agents out of their window and attaches the quota used today', () => {
    const agents = eligibleAgents(
      [row({ id: 1 }), row({ id: 2, enrollmentOnly: true }), row({ id: 3, category: 'ACA' })],
      new Map([[3, 4]]),
      JUNE,
    );
    expect(agents.map((a) => [a.id, a.assignedToday])).toEqual([
      [1, 0],
      [3, 4],
    ]);
  });

  it('keeps an agent whose preferred categories leave out the package category, fitting nothing', () => {
    const [excluded, included] = eligibleAgents(
      [row({ id: 1, categories: ['ACA'] }), row({ id: 2, categories: ['ACA', 'MEDICARE'] })],
      new Map(),
      JUNE,
    );
    expect(excluded.category).toBeNull();
    expect(included.category).toBe('MEDICARE');
  });

  it('normalizes and de-duplicates preferred cities', () => {
    const [agent] = eligibleAgents(
      [row({ cities: ['Austin', ' AUSTIN ', '  ', 'El  Paso'] })],
      new Map(),
      JUNE,
    );
    expect(agent.cities).toEqual(['austin', 'el paso']);
  });

  it('leaves paused agents out entirely', () => {
    const agents = eligibleAgents(
      [row({ id: 1, pausedAt: '2026-06-01T00:00:00.000Z' }), row({ id: 2 })],
      new Map(),
      JUNE,
    );
    expect(agents.map((a) => a.id)).toEqual([2]);
  });

  it('narrows the states to the licence; no overlap keeps the agent but fits nothing', () => {
    const [both, onlyLicence, none, free] = eligibleAgents(
      [
        row({ id: 1, states: ['TX', 'FL', 'GA'], licensedStates: ['FL', 'TX', 'OH'] }),
        row({ id: 2, states: [], licensedStates: ['OH'] }),
        row({ id: 3, states: ['TX'], licensedStates: ['OH'] }),
        row({ id: 4, states: ['TX'], licensedStates: [] }),
      ],
      new Map(),
      JUNE,
    );
    expect(both.states).toEqual(['TX', 'FL']);
    expect(onlyLicence.states).toEqual(['OH']);
    expect(none.category).toBeNull();
    expect(free.states).toEqual(['TX']);
  });
});

describe('effectiveStates', () => {
  it('is the intersection, the licence alone, the preferences alone, or null', () => {
    expect(effectiveStates(['TX', 'FL'], ['FL'])).toEqual(['FL']);
    expect(effectiveStates([], ['FL', 'FL'])).toEqual(['FL']);
    expect(effectiveStates(['TX'], [])).toEqual(['TX']);
    expect(effectiveStates([], [])).toEqual([]);
    expect(effectiveStates(['TX'], ['FL'])).toBeNull();
  });
});
