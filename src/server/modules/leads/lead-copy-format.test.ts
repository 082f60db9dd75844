import { describe, expect, it } from 'vitest';
import { copyValue, encodeLeadRows } from './lead-copy-format';
import type { ParsedLead } from './lead-row.service';

/** PostgreSQL's reading of one COPY text field (the inverse of copyValue). */
function readCopyValue(field: string): string | null {
  if (field === '\\N') return null;
  return field.replace(/\\(.)/g, (_, c: string) =>
    c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c,
  );
}

const lead = (over: Partial<ParsedLead> = {}): ParsedLead => ({
  line: 2,
  externalId: 'X-1',
  firstName: 'Ann',
  lastName: 'Lee',
  phone: '+12125550100',
  email: 'ann@example.com',
  city: 'Austin',
  state: 'TX',
  age: 65,
  category: 'MEDICARE',
  zip: null,
  timeZone: 'America/Chicago',
  consentAt: null,
  consentText: null,
  trustedFormCertUrl: null,
  jornayaLeadId: null,
  consentIp: null,
  ...over,
});

describe('COPY text format', () => {
  it('escapes backslash, tab, line feed and carriage return, and writes null as \\N', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue('plain text, "quoted"')).toBe('plain text, "quoted"');
    expect(copyValue('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyValue('\\N')).toBe('\\\\N');
    expect(copyValue('\\.')).toBe('\\\\.');
  });

  it('writes one line of twenty-two tab-separated fields per lead, which read back as they were', () => {
    const tricky = lead({
      externalId: null,
      firstName: 'A\tB',
      lastName: 'back\\slash',
      phone: null,
      email: null,
      city: 'Line\r\nbreak',
      zip: '78701',
      consentAt: '2026-03-01T14:30:00.000Z',
      consentText: 'I agree\tto be called',
    });
    const text = encodeLeadRows([lead(), tricky], 42);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]).toBe(
      'X-1\tAnn\tLee\t+12125550100\tann@example.com\tAustin\tTX\t65\tMEDICARE\t\\N\tAmerica/Chicago\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t42\t\\N\t2',
    );
    const fields = lines[1].split('\t');
    expect(fields).toHaveLength(22);
    expect(fields.map(readCopyValue)).toEqual([
      null,
      'A\tB',
      'back\\slash',
      null,
      null,
      'Line\r\nbreak',
      'TX',
      '65',
      'MEDICARE',
      '78701',
      'America/Chicago',
      '2026-03-01T14:30:00.000Z',
      'I agree\tto be called',
      null,
      null,
      null,
      null,
      null,
      null,
      '42',
      null,
      '2',
    ]);
    expect(encodeLeadRows([], 1)).toBe('');
    expect(encodeLeadRows([lead()], 42, 7)).toMatch(/\t42\t7\t2\n$/);
    // a row whose consent was checked carries the outcome, when and until when it is kept
    const checked = lead({
      consentOutcome: 'VERIFIED',
      consentVerifiedAt: '2026-11-27T10:00:00.000Z',
      consentExpiresAt: '2027-02-25T10:00:00.000Z',
    });
    expect(encodeLeadRows([checked], 42).split('\t').slice(16, 19)).toEqual([
      'VERIFIED',
      '2026-11-27T10:00:00.000Z',
      '2027-02-25T10:00:00.000Z',
    ]);
  });
});
