import { describe, expect, it } from 'vitest';
import { callingWindow } from '../../shared/calling-window';
import { leadTimeZone, normalizeZip } from './lead-time-zone';

describe('normalizeZip', () => {
  it('keeps the five digits of a ZIP or ZIP+4, nothing else', () => {
    expect(normalizeZip('32501')).toBe('32501');
    expect(normalizeZip(' 32501-1234 ')).toBe('32501');
    expect(normalizeZip('325011234')).toBe('32501');
    expect(normalizeZip('3250')).toBeNull();
    expect(normalizeZip('abcde')).toBeNull();
    expect(normalizeZip(null)).toBeNull();
    expect(normalizeZip(undefined)).toBeNull();
  });
});

describe('leadTimeZone', () => {
  it('Pensacola FL (ZIP 32501) is Central although Florida is mostly Eastern', () => {
    expect(leadTimeZone('32501', 'FL')).toBe('America/Chicago');
    expect(leadTimeZone('33101', 'FL')).toBe('America/New_York');
    expect(leadTimeZone(null, 'FL')).toBe('America/New_York');
  });

  it('a Pensacola lead at 7:30 PM CT is still callable (Florida closes at 8 PM local)', () => {
    // 2026-11-24 19:30 CST = 01:30 UTC, already 20:30 in Miami
    const now = new Date('2026-11-25T01:30:00Z');
    const pensacola = callingWindow(leadTimeZone('32501', 'FL'), 'FL', now);
    expect(pensacola.callableNow).toBe(true);
    expect(pensacola.label).toBe('Callable now until 8 PM CT');
    expect(callingWindow(leadTimeZone('33101', 'FL'), 'FL', now).callableNow).toBe(false);
  });

  it('an unknown ZIP falls back to the state zone', () => {
    expect(leadTimeZone('00000', 'TX')).toBe('America/Chicago');
    expect(leadTimeZone(null, 'AZ')).toBe('America/Phoenix');
  });
});
