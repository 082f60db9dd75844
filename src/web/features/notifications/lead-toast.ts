import type { LeadAssignedEvent } from '../../../shared/contracts/delivery';
import { categoryLabel } from '../../../shared/format';

/** What the toast says of new leads: the lead by name, and how many came with it. */
export function leadToastText(event: LeadAssignedEvent): { title: string; description: string } {
  const place = `${event.city}, ${event.state}`;
  if (event.more === 0) {
    return {
      title: `New lead: ${event.name}`,
      description: `${place} · ${categoryLabel(event.category)}`,
    };
  }
  return {
    title: `${event.more + 1} new leads`,
    description: `${event.name}, ${place} and ${event.more} more`,
  };
}
