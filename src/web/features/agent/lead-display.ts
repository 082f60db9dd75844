import type { Lead } from '@shared/contracts/leads';

type Searchable = Pick<Lead, 'firstName' | 'lastName' | 'phone' | 'email'>;

/**
 * Whether a lead matches the search box: the text appears in the first name, last name, phone
 * or email, ignoring case (spec: applied to the loaded list). Blank text matches every lead.
 */
export function matchesLeadSearch(lead: Searchable, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [lead.firstName, lead.lastName, lead.phone, lead.email].some(
    (field) => field?.toLowerCase().includes(needle) ?? false,
  );
}

export function searchLeads<T extends Searchable>(leads: T[], text: string): T[] {
  return leads.filter((lead) => matchesLeadSearch(lead, text));
}

export function leadFullName(lead: Pick<Lead, 'firstName' | 'lastName'>): string {
  return [lead.firstName, lead.lastName].filter(Boolean).join(' ') || 'Unnamed lead';
}

export function leadLocation(lead: Pick<Lead, 'city' | 'state'>): string {
  return `${lead.city}, ${lead.state}`;
}
