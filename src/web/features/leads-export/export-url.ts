import type { LeadStatus } from '@shared/domain';

export interface LeadsExportFilter {
  status?: LeadStatus;
  q?: string;
}

export const LEADS_EXPORT_PATH = '/api/admin/leads/export';

/** The export URL for a filter; empty values are left out (they mean "all"). */
export function leadsExportUrl(filter: LeadsExportFilter = {}): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  const q = filter.q?.trim();
  if (q) params.set('q', q);
  const search = params.toString();
  return search ? `${LEADS_EXPORT_PATH}?${search}` : LEADS_EXPORT_PATH;
}
