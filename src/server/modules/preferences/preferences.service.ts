import type { Preferences } from '../../../shared/contracts/agent';
import { LEAD_CATEGORIES, STATE_CODES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { findPreferences, NO_PREFERENCES, savePreferences } from './preferences.repository';

/** An agent who never saved preferences has none: every state, city, age and category. */
export async function getPreferences(db: Db, agentId: number): Promise<Preferences> {
  return (await findPreferences(db, agentId)) ?? NO_PREFERENCES;
}

/**
 * Stores the agent's preferences (already validated by the route's schema) in a canonical
 * form: blank cities dropped, duplicates dropped (cities compared as the engine matches them:
 * case- and space-insensitive), states and categories in their usual order.
 */
export function updatePreferences(
  db: Db,
  agentId: number,
  prefs: Preferences,
): Promise<Preferences> {
  return savePreferences(db, agentId, normalizePreferences(prefs));
}

export function normalizePreferences(prefs: Preferences): Preferences {
  const states = new Set(prefs.states);
  const categories = new Set(prefs.categories);
  const seenCities = new Set<string>();
  const cities: string[] = [];
  for (const raw of prefs.cities) {
    const city = raw.trim().replace(/\s+/g, ' ');
    const key = city.toLowerCase();
    if (!city || seenCities.has(key)) continue;
    seenCities.add(key);
    cities.push(city);
  }
  return {
    states: STATE_CODES.filter((code) => states.has(code)),
    cities,
    ageMin: prefs.ageMin,
    ageMax: prefs.ageMax,
    categories: LEAD_CATEGORIES.filter((category) => categories.has(category)),
  };
}
