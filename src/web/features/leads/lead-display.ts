/**
 * "Showing 51–100 of 1,234" for a page of a longer list; "of 1,000+" when the total is only a
 * lower bound (a search with more matches than the server counts).
 */
export function pageRange(offset: number, shown: number, total: number, exact = true): string {
  const of = `${total.toLocaleString('en-US')}${exact ? '' : '+'}`;
  if (total === 0 || shown === 0) return `Showing 0 of ${of}`;
  const from = (offset + 1).toLocaleString('en-US');
  const to = (offset + shown).toLocaleString('en-US');
  return `Showing ${from}–${to} of ${of}`;
}

/** "1,234 leads", "1 lead", "1,000+ leads". */
export function leadCount(total: number, exact = true): string {
  if (!exact) return `${total.toLocaleString('en-US')}+ leads`;
  return `${total.toLocaleString('en-US')} ${total === 1 ? 'lead' : 'leads'}`;
}

/** The import's toast text (docs/domain.md, Screens). */
export function importSummary(result: { imported: number; errorCount: number }): string {
  return `Imported ${result.imported} leads. ${result.errorCount} errors.`;
}

/** A phone number as a tel: link: its digits (and a leading +), '(555) 614-8966' -> tel:5556148966. */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

/**
 * When the agent received a lead, as My Leads' rows say it: "just now", "12 min ago", "3 h ago",
 * "yesterday", "4 days ago", then the date ("Nov 3", with the year when it is not this year's).
 */
export function receivedAgo(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return at.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** The exact time of a moment, for a title on hover: "Nov 27, 2026, 12:14 PM". */
export function exactTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
