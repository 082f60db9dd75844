import { describe, expect, it } from 'vitest';
import { callingMinutesDueAt, callingWindow, STATE_TIME_ZONES } from './calling-window';
import { STATE_CODES } from './domain';

const at = (iso: string) => new Date(iso);

describe('every state has a zone', () => {
  it('each of the 50 states, DC and Puerto Rico maps to a real IANA zone with a US short name', () => {
    for (const state of STATE_CODES) {
      const zone = STATE_TIME_ZONES[state];
      expect(zone, state).toBeDefined();
      // a real zone: Intl throws a RangeError on an unknown one
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
      const window = callingWindow(null, state, at('2026-06-15T18:00:00Z'));
      expect(window.zone, state).toMatch(/^(ET|CT|MT|PT|AKT|HT|AT)$/);
    }
  });

  it('a lead with no zone and an unknown state falls back to Eastern', () => {
    expect(callingWindow(null, 'ZZ', at('2026-06-15T18:00:00Z')).zone).toBe('ET');
  });
});

describe('the window in the lead own zone', () => {
  it('a Florida lead at 8:30 PM local is not callable: Florida closes at 8 PM', () => {
    // 2026-11-24 20:30 EST = 2026-11-25 01:30 UTC
    const w = callingWindow('America/New_York', 'FL', at('2026-11-25T01:30:00Z'));
    expect(w.callableNow).toBe(false);
    expect(w.label).toBe('Call tomorrow after 8 AM ET');
    expect(w.opensAt).toBe('2026-11-25T13:00:00.000Z');
    expect(w.closesAt).toBe('2026-11-26T01:00:00.000Z');
  });

  it('a Florida lead at 7:59 PM is callable until 8 PM ET', () => {
    const w = callingWindow('America/New_York', 'FL', at('2026-11-25T00:59:00Z'));
    expect(w.callableNow).toBe(true);
    expect(w.label).toBe('Callable now until 8 PM ET');
  });

  it('a Texas lead at 8:30 PM CT is callable until 9 PM CT', () => {
    // 2026-11-24 20:30 CST = 2026-11-25 02:30 UTC
    const w = callingWindow('America/Chicago', 'TX', at('2026-11-25T02:30:00Z'));
    expect(w.callableNow).toBe(true);
    expect(w.label).toBe('Callable now until 9 PM CT');
    expect(w.closesAt).toBe('2026-11-25T03:00:00.000Z');
  });

  it('a lead before 8 AM local may be called after 8 AM the same day', () => {
    // 2026-11-24 07:15 PST
    const w = callingWindow('America/Los_Angeles', 'CA', at('2026-11-24T15:15:00Z'));
    expect(w.callableNow).toBe(false);
    expect(w.label).toBe('Call after 8 AM PT');
    expect(w.opensAt).toBe('2026-11-24T16:00:00.000Z');
  });

  it('opens exactly at 8:00 and closes exactly at 21:00', () => {
    expect(callingWindow('America/Chicago', 'IL', at('2026-11-24T14:00:00Z')).callableNow).toBe(
      true,
    );
    expect(callingWindow('America/Chicago', 'IL', at('2026-11-24T13:59:59Z')).callableNow).toBe(
      false,
    );
    expect(callingWindow('America/Chicago', 'IL', at('2026-11-25T03:00:00Z')).callableNow).toBe(
      false,
    );
  });

  it('Arizona keeps 8 AM to 9 PM MST all year (no DST)', () => {
    // 20:30 MST in July (UTC-7, while Denver is on MDT) and in January
    const summer = callingWindow('America/Phoenix', 'AZ', at('2026-07-02T03:30:00Z'));
    expect(summer.callableNow).toBe(true);
    expect(summer.label).toBe('Callable now until 9 PM MT');
    expect(summer.closesAt).toBe('2026-07-02T04:00:00.000Z');
    const winter = callingWindow('America/Phoenix', 'AZ', at('2026-01-15T03:30:00Z'));
    expect(winter.callableNow).toBe(true);
    expect(winter.closesAt).toBe('2026-01-15T04:00:00.000Z');
    // the same UTC instant in Denver is 21:30 MDT in summer: closed
    expect(callingWindow('America/Denver', 'CO', at('2026-07-02T03:30:00Z')).callableNow).toBe(
      false,
    );
  });

  it('Hawaii and Alaska get their own short names', () => {
    expect(callingWindow(null, 'HI', at('2026-06-15T22:00:00Z')).label).toBe(
      'Callable now until 9 PM HT',
    );
    expect(callingWindow(null, 'AK', at('2026-06-15T22:00:00Z')).label).toBe(
      'Callable now until 9 PM AKT',
    );
  });
});

describe('across a DST change', () => {
  it('spring forward (2026-03-08): the window opens at 8 AM EDT, not EST', () => {
    // 2026-03-07 22:00 EST = 03:00 UTC on the 8th: tomorrow opens at 8 AM EDT = 12:00 UTC
    const evening = callingWindow('America/New_York', 'NY', at('2026-03-08T03:00:00Z'));
    expect(evening.callableNow).toBe(false);
    expect(evening.label).toBe('Call tomorrow after 8 AM ET');
    expect(evening.opensAt).toBe('2026-03-08T12:00:00.000Z');
    expect(evening.closesAt).toBe('2026-03-09T01:00:00.000Z');
    // 7:30 AM EDT on the 8th (11:30 UTC) is still closed; 8:00 AM EDT (12:00 UTC) is open
    const early = callingWindow('America/New_York', 'NY', at('2026-03-08T11:30:00Z'));
    expect(early.callableNow).toBe(false);
    expect(early.label).toBe('Call after 8 AM ET');
    expect(early.opensAt).toBe('2026-03-08T12:00:00.000Z');
    const open = callingWindow('America/New_York', 'NY', at('2026-03-08T12:00:00Z'));
    expect(open.callableNow).toBe(true);
    expect(open.closesAt).toBe('2026-03-09T01:00:00.000Z');
    // 3 AM EDT, just after the jump (07:00 UTC): before the window
    expect(callingWindow('America/New_York', 'NY', at('2026-03-08T07:00:00Z')).callableNow).toBe(
      false,
    );
  });

  it('fall back (2026-11-01): the window opens at 8 AM CST, not CDT', () => {
    // 2026-10-31 21:30 CDT = 02:30 UTC on Nov 1: tomorrow opens at 8 AM CST = 14:00 UTC
    const evening = callingWindow('America/Chicago', 'TX', at('2026-11-01T02:30:00Z'));
    expect(evening.callableNow).toBe(false);
    expect(evening.label).toBe('Call tomorrow after 8 AM CT');
    expect(evening.opensAt).toBe('2026-11-01T14:00:00.000Z');
    expect(evening.closesAt).toBe('2026-11-02T03:00:00.000Z');
    // 7:30 AM CST on Nov 1 (13:30 UTC; it would be 8:30 CDT): still closed
    const early = callingWindow('America/Chicago', 'TX', at('2026-11-01T13:30:00Z'));
    expect(early.callableNow).toBe(false);
    expect(early.opensAt).toBe('2026-11-01T14:00:00.000Z');
    // 8:30 PM CST on Nov 1 (02:30 UTC Nov 2): open until 9 PM CST (03:00 UTC)
    const late = callingWindow('America/Chicago', 'TX', at('2026-11-02T02:30:00Z'));
    expect(late.callableNow).toBe(true);
    expect(late.closesAt).toBe('2026-11-02T03:00:00.000Z');
  });

  it('a Florida lead on the fall-back day closes at 8 PM EST', () => {
    // 2026-11-01 19:30 EST = 00:30 UTC Nov 2: callable; 20:30 EST = 01:30 UTC: not
    expect(callingWindow('America/New_York', 'FL', at('2026-11-02T00:30:00Z')).callableNow).toBe(
      true,
    );
    const closed = callingWindow('America/New_York', 'FL', at('2026-11-02T01:30:00Z'));
    expect(closed.callableNow).toBe(false);
    expect(closed.label).toBe('Call tomorrow after 8 AM ET');
    expect(closed.opensAt).toBe('2026-11-02T13:00:00.000Z');
  });
});

describe('callingMinutesDueAt', () => {
  it('counts only minutes inside the lead calling window', () => {
    // 10:00 in Chicago (CDT, UTC-5): 30 minutes later, inside the window
    expect(
      callingMinutesDueAt('America/Chicago', 'TX', new Date('2026-06-15T15:00:00Z'), 30),
    ).toEqual(new Date('2026-06-15T15:30:00Z'));
    // 20:50 in Chicago: 10 minutes tonight, 20 more after 8 AM tomorrow
    expect(
      callingMinutesDueAt('America/Chicago', 'TX', new Date('2026-06-16T01:50:00Z'), 30),
    ).toEqual(new Date('2026-06-16T13:20:00Z'));
    // 3 AM in New York: nothing counts before 8 AM
    expect(
      callingMinutesDueAt('America/New_York', 'NY', new Date('2026-06-15T07:00:00Z'), 60),
    ).toEqual(new Date('2026-06-15T13:00:00Z'));
    // Florida closes at 8 PM
    expect(
      callingMinutesDueAt('America/New_York', 'FL', new Date('2026-06-15T23:30:00Z'), 60),
    ).toEqual(new Date('2026-06-16T12:30:00Z'));
  });
});
