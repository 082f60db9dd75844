import { describe, expect, it } from 'vitest';
import type { EnrollmentWindows } from '../../config/env';
import {
  type AgentRow,
  effectiveStates,
  eligibleAgents,
  enrollmentOpen,
  normalizeCity,
} from './eligibility';

const WINDOWS: EnrollmentWindows = {
  MEDICARE: { start: '10-15', end: '12-07' },
  ACA: { start: '11-01', end: '01-15' },
};

describe('enrollmentOpen', () => {
  it('opens an enrollment-only MEDICARE package from Oct 15 to Dec 7 inclusive', () => {
    const open = (date: string) => enrollmentOpen('MEDICARE', true, date, WINDOWS);
    expect(open('2026-10-14')).toBe(false);
    expect(open('2026-10-15')).toBe(true);
    expect(open('2026-12-07')).toBe(true);
    expect(open('2026-12-08')).toBe(false);
  });

  it('wraps the new year for ACA (Nov 1 - Jan 15)', () => {
    const open = (date: string) => enrollmentOpen('ACA', true, date, WINDOWS);
    expect(open('2026-10-31')).toBe(false);
    expect(open('2026-11-01')).toBe(true);
    expect(open('2026-12-31')).toBe(true);
    expect(open('2027-01-15')).toBe(true);
    expect(open('2027-01-16')).toBe(false);
    expect(open('2027-06-01')).toBe(false);
  });

  it('is always open without the flag, and for a category with no window configured', () => {
    expect(enrollmentOpen('MEDICARE', false, '2026-06-01', WINDOWS)).toBe(true);
    expect(enrollmentOpen('FINAL_EXPENSE', true, '2026-06-01', WINDOWS)).toBe(true);
    expect(enrollmentOpen('MEDICARE', true, '2026-06-01', {})).toBe(true);
  });
});

describe('normalizeCity', () => {
  it('lowercases, trims and collapses inner whitespace', () => {
    expect(normalizeCity('  San \t  ANTONIO ')).toBe('san antonio');
    expect(normalizeCity('El Paso')).toBe('el paso');
  });
});

describe('eligibleAgents', () => {
  const row = (over: Partial<AgentRow>): AgentRow => ({
    id: 1,
    category: 'MEDICARE',
    quota: 5,
    enrollmentOnly: false,
    states: [],
    cities: [],
    ageMin: null,
    ageMax: null,
    categories: [],
    ...over,
  });

  it('drops enrollment-only agents out of their window and attaches the quota used today', () => {
    const agents = eligibleAgents(
      [row({ id: 1 }), row({ id: 2, enrollmentOnly: true }), row({ id: 3, category: 'ACA' })],
      new Map([[3, 4]]),
      '2026-06-15',
      WINDOWS,
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
      '2026-06-15',
      WINDOWS,
    );
    expect(excluded.category).toBeNull();
    expect(included.category).toBe('MEDICARE');
  });

  it('normalizes and de-duplicates preferred cities', () => {
    const [agent] = eligibleAgents(
      [row({ cities: ['Austin', ' AUSTIN ', '  ', 'El  Paso'] })],
      new Map(),
      '2026-06-15',
      WINDOWS,
    );
    expect(agent.cities).toEqual(['austin', 'el paso']);
  });

  it('leaves paused agents out entirely', () => {
    const agents = eligibleAgents(
      [row({ id: 1, paused: true }), row({ id: 2, paused: false })],
      new Map(),
      '2026-06-15',
      WINDOWS,
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
      '2026-06-15',
      WINDOWS,
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
