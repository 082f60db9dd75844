import type { Client } from './test-app';

/** POST /api/admin/leads/import with `csv` as the form's file, as the browser sends it. */
export function uploadCsv(
  client: Client,
  csv: string | Uint8Array<ArrayBuffer>,
  filename = 'leads.csv',
  type = 'text/csv',
) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type }), filename);
  return client.request('POST', '/api/admin/leads/import', form);
}
