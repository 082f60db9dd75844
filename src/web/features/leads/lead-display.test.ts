import { describe, expect, it } from 'vitest';
import { LEAD_STATUSES } from '../../../shared/domain';
import { leadName, leadPlace, leadStatusLabel } from '../../../shared/format';
import { importSummary, leadCount, pageRange, receivedAgo, telHref } from './lead-display';

describe('lead display', () => {
  it('names a lead from its parts, or says it has no name', () => {
    expect(leadName({ firstName: 'Ann', lastName: 'Lee' })).toBe('Ann Lee');
    expect(leadName({ firstName: null, lastName: 'Lee' })).toBe('Lee');
    expect(leadName({ firstName: null, lastName: null })).toBe('Unnamed lead');
    expect(leadPlace({ city: 'Austin', state: 'TX' })).toBe('Austin, TX');
  });

  it('describes the page shown', () => {
    expect(pageRange(0, 50, 1234)).toBe('Showing 1–50 of 1,234');
    expect(pageRange(1200, 34, 1234)).toBe('Showing 1,201–1,234 of 1,234');
    expect(pageRange(0, 0, 0)).toBe('Showing 0 of 0');
    expect(pageRange(1_000, 50, 1_000, false)).toBe('Showing 1,001–1,050 of 1,000+');
  });

  it('counts leads, with a plus when the total is a lower bound', () => {
    expect(leadCount(1)).toBe('1 lead');
    expect(leadCount(1234)).toBe('1,234 leads');
    expect(leadCount(1_000, false)).toBe('1,000+ leads');
  });

  it('words the import toast as the spec does, counting every error', () => {
    expect(importSummary({ imported: 3, errorCount: 2 })).toBe('Imported 3 leads. 2 errors.');
    expect(importSummary({ imported: 0, errorCount: 0 })).toBe('Imported 0 leads. 0 errors.');
  });
});

describe('leadStatusLabel', () => {
  it('names every status as the status filter shows it', () => {
    expect(LEAD_STATUSES.map(leadStatusLabel)).toEqual([
      'New',
      'Assigned',
      'Contacted',
      'In Progress',
      'Converted',
      'Invalid',
    ]);
  });
});

describe('telHref', () => {
  it('dials the digits of a number however it is written', () => {
    expect(telHref('(555) 614-8966')).toBe('tel:5556148966');
    expect(telHref('555-7001')).toBe('tel:5557001');
    expect(telHref(' +1 555.614.8966 ')).toBe('tel:+15556148966');
  });

  it('says when a lead was received as an agent reads it at a glance', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const ago = (ms: number) => receivedAgo(new Date(now.getTime() - ms).toISOString(), now);
    expect(ago(20_000)).toBe('just now');
    expect(ago(12 * 60_000)).toBe('12 min ago');
    expect(ago(3 * 3_600_000)).toBe('3 h ago');
    expect(ago(30 * 3_600_000)).toBe('yesterday');
    expect(ago(4 * 86_400_000)).toBe('4 days ago');
    expect(ago(20 * 86_400_000)).toBe('Nov 7');
    expect(receivedAgo('2025-06-01T12:00:00Z', now)).toBe('Jun 1, 2025');
  });
});
