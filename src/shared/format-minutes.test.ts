import { describe, expect, it } from 'vitest';
import { durationUnit, formatInUnit, formatMinutes } from './format-minutes';

describe('durations', () => {
  it('reads a duration as people say it', () => {
    expect(formatMinutes(null)).toBe('—');
    expect(formatMinutes(0.5)).toBe('30 s');
    expect(formatMinutes(200)).toBe('3 h 20 min');
    expect(formatMinutes(52 * 60)).toBe('2 d 4 h');
  });

  it('picks one unit from the largest duration of a set', () => {
    expect(durationUnit(null).label).toBe('min');
    expect(durationUnit(0).label).toBe('min');
    expect(durationUnit(0.1).label).toBe('s');
    expect(durationUnit(1.9).label).toBe('s');
    expect(durationUnit(2).label).toBe('min');
    expect(durationUnit(119).label).toBe('min');
    expect(durationUnit(120).label).toBe('h');
    expect(durationUnit(47 * 60).label).toBe('h');
    expect(durationUnit(48 * 60).label).toBe('d');
  });

  it('shows every duration of the set in that unit, the figures as the axis reads them', () => {
    const hours = durationUnit(300);
    expect(formatInUnit(90, hours)).toBe('1.5 h');
    expect(formatInUnit(300, hours)).toBe('5 h');
    expect(formatInUnit(12.3 * 60, hours)).toBe('12 h');
    expect(formatInUnit(null, hours)).toBe('—');
    const minutes = durationUnit(45);
    expect(formatInUnit(4.25, minutes)).toBe('4.3 min');
    expect(formatInUnit(45, minutes)).toBe('45 min');
    expect(formatInUnit(3 * 1440, durationUnit(3 * 1440))).toBe('3 d');
    const seconds = durationUnit(1.5);
    expect(formatInUnit(0.1, seconds)).toBe('6 s');
    expect(formatInUnit(1.5, seconds)).toBe('90 s');
  });
});
