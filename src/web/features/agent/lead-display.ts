import type { Lead } from '@shared/contracts/leads';

/** How a lead is named and placed in the agent's list (the search itself is the server's). */
export function leadFullName(lead: Pick<Lead, 'firstName' | 'lastName'>): string {
  return [lead.firstName, lead.lastName].filter(Boolean).join(' ') || 'Unnamed lead';
}

export function leadLocation(lead: Pick<Lead, 'city' | 'state'>): string {
  return `${lead.city}, ${lead.state}`;
}
