import type { Preferences } from '@shared/contracts/agent';
import type { LeadCategory } from '@shared/domain';

/** The Preferences screen's editable state: text fields stay text until saved. */
export interface PreferencesFormState {
  states: string[];
  cities: string;
  ageMin: string;
  ageMax: string;
  categories: LeadCategory[];
}

/** Cities are split on commas, trimmed, blanks dropped; none means all cities. */
export function parseCities(text: string): string[] {
  return text
    .split(',')
    .map((city) => city.trim())
    .filter((city) => city.length > 0);
}

/** An empty age input means no bound (null). */
export function parseAge(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

export function toFormState(prefs: Preferences): PreferencesFormState {
  return {
    states: [...prefs.states],
    cities: prefs.cities.join(', '),
    ageMin: prefs.ageMin === null ? '' : String(prefs.ageMin),
    ageMax: prefs.ageMax === null ? '' : String(prefs.ageMax),
    categories: [...prefs.categories],
  };
}

export function toPreferences(form: PreferencesFormState): Preferences {
  return {
    states: form.states,
    cities: parseCities(form.cities),
    ageMin: parseAge(form.ageMin),
    ageMax: parseAge(form.ageMax),
    categories: form.categories,
  };
}

/** Adds the item when absent, removes it when present. */
export function toggle<T>(items: readonly T[], item: T): T[] {
  return items.includes(item) ? items.filter((i) => i !== item) : [...items, item];
}
