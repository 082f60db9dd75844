/**
 * A lead's time zone (docs/domain.md, Calling window): its ZIP's zone when the ZIP is known
 * (zipcode-to-timezone's table), else its state's main zone.
 */
import zipcodeToTimezone from 'zipcode-to-timezone';
import { STATE_TIME_ZONES } from '../../shared/calling-window';

/** A 5-digit ZIP from what a source sent ('33101', '33101-1234'), or null. */
export function normalizeZip(raw: string | null | undefined): string | null {
  const m = /^\s*(\d{5})(?:-?\d{4})?\s*$/.exec(raw ?? '');
  return m ? (m[1] as string) : null;
}

export function leadTimeZone(zip: string | null, state: string): string {
  const byZip = zip ? zipcodeToTimezone.lookup(zip) : null;
  return byZip ?? STATE_TIME_ZONES[state] ?? 'America/New_York';
}
