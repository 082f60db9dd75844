import { describe, expect, it } from 'vitest';
import { MISFIT_REASONS } from '../../../shared/contracts/explanation';
import type { EnrollmentWindows } from '../../config/env';
import {
  AGENT_CONDITIONS,
  CAPACITY_CONDITIONS,
  enrollmentOpen,
  LEAD_CONDITIONS,
  normalizeCity,
  pausedAt,
} from './fit-rule.service';

const WINDOWS: EnrollmentWindows = {
  MEDICARE: { start: '10-15', end: '12-07' },
  ACA: { start: '11-01', end: '01-15' },
};

describe('the fit rule', () => {
  it('checks its conditions in the order of the reasons the explanation names', () => {
    expect([
      ...Object.keys(AGENT_CONDITIONS),
      ...Object.keys(LEAD_CONDITIONS),
      ...Object.keys(CAPACITY_CONDITIONS),
    ]).toEqual([...MISFIT_REASONS]);
  });

  it('holds a pause from its start until its end, or until the agent resumes', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    expect(pausedAt({ pausedAt: null, pausedUntil: null }, now)).toBe(false);
    expect(pausedAt({ pausedAt: '2026-06-01T00:00:00Z', pausedUntil: null }, now)).toBe(true);
    expect(
      pausedAt({ pausedAt: '2026-06-01T00:00:00Z', pausedUntil: '2026-06-16T00:00:00Z' }, now),
    ).toBe(true);
    expect(
      pausedAt({ pausedAt: '2026-06-01T00:00:00Z', pausedUntil: '2026-06-15T12:00:00Z' }, now),
    ).toBe(false);
  });
});

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
