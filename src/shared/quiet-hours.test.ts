import { describe, expect, it } from 'vitest';
import { inQuietHours, minuteOfDay } from './quiet-hours';

const at = (iso: string) => new Date(iso);
const CHICAGO = 'America/Chicago';

describe('quiet hours', () => {
  it('reads the wall clock of the zone, daylight saving included', () => {
    // 03:30 UTC in July is 22:30 CDT; in January 21:30 CST
    expect(minuteOfDay(at('2026-07-16T03:30:00Z'), CHICAGO)).toBe(22 * 60 + 30);
    expect(minuteOfDay(at('2026-01-16T03:30:00Z'), CHICAGO)).toBe(21 * 60 + 30);
  });

  it('a window within one day holds from its start up to, not including, its end', () => {
    const lunch = { start: '12:00', end: '13:00' };
    expect(inQuietHours(lunch, at('2026-07-15T16:59:00Z'), CHICAGO)).toBe(false); // 11:59
    expect(inQuietHours(lunch, at('2026-07-15T17:00:00Z'), CHICAGO)).toBe(true); // 12:00
    expect(inQuietHours(lunch, at('2026-07-15T17:59:00Z'), CHICAGO)).toBe(true); // 12:59
    expect(inQuietHours(lunch, at('2026-07-15T18:00:00Z'), CHICAGO)).toBe(false); // 13:00
  });

  it('a window that crosses midnight holds on both sides of it', () => {
    const night = { start: '22:00', end: '07:00' };
    expect(inQuietHours(night, at('2026-07-16T02:59:00Z'), CHICAGO)).toBe(false); // 21:59
    expect(inQuietHours(night, at('2026-07-16T03:00:00Z'), CHICAGO)).toBe(true); // 22:00
    expect(inQuietHours(night, at('2026-07-16T05:00:00Z'), CHICAGO)).toBe(true); // 00:00
    expect(inQuietHours(night, at('2026-07-16T11:59:00Z'), CHICAGO)).toBe(true); // 06:59
    expect(inQuietHours(night, at('2026-07-16T12:00:00Z'), CHICAGO)).toBe(false); // 07:00
    expect(inQuietHours(night, at('2026-07-16T17:00:00Z'), CHICAGO)).toBe(false); // 12:00
  });

  it('no quiet hours: never quiet', () => {
    expect(inQuietHours(null, at('2026-07-16T05:00:00Z'), CHICAGO)).toBe(false);
  });
});
