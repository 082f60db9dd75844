import { describe, expect, it } from 'vitest';
import { leadsExportUrl } from './export-url';

describe('leadsExportUrl', () => {
  it('is the bare path without a filter', () => {
    expect(leadsExportUrl()).toBe('/api/admin/leads/export');
    expect(leadsExportUrl({ q: '  ' })).toBe('/api/admin/leads/export');
  });

  it('carries the status and the trimmed search, encoded', () => {
    expect(leadsExportUrl({ status: 'NEW' })).toBe('/api/admin/leads/export?status=NEW');
    expect(leadsExportUrl({ status: 'CONVERTED', q: ' Ann & Lee ' })).toBe(
      '/api/admin/leads/export?status=CONVERTED&q=Ann+%26+Lee',
    );
    expect(leadsExportUrl({ q: '50%_off#1' })).toBe('/api/admin/leads/export?q=50%25_off%231');
  });
});
