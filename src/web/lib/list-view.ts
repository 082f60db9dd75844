/** What a list shows: exactly one of these at a time. */
export type ListView = 'loading' | 'error' | 'empty' | 'rows';

/**
 * One state at a time for a list loaded by a query: an error wins (with its Retry, even while
 * the retry runs, so the button keeps the focus); then loading until there is data; then the
 * empty message or the rows. A list never shows "Loading..." beside an error, nor "No leads
 * found" for a list that failed to load.
 */
export function listView(query: { isError: boolean; data: unknown }, rowCount: number): ListView {
  if (query.isError) return 'error';
  if (query.data === undefined) return 'loading';
  return rowCount === 0 ? 'empty' : 'rows';
}
