import type { z } from 'zod';
import type { Preferences, preferencesResponse } from '../../../shared/contracts/agent';
import { LEAD_CATEGORIES, STATE_CODES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { licensedStatesOf } from '../licences/licences.service';
import { findPreferences, NO_PREFERENCES, savePreferences } from './preferences.repository';

/** The stored preferences, with the licence beside them. */
type PreferencesAnswer = z.infer<typeof preferencesResponse>;

/** An agent who never saved preferences has none: every state, city, age and category. */
export async function getPreferences(db: Db, agentId: number): Promise<PreferencesAnswer> {
  return withLicence(db, agentId, (await findPreferences(db, agentId)) ?? NO_PREFERENCES);
}

/** The licence beside the preferences, and the preferred states it leaves out (docs/domain.md, Licensed states). */
async function withLicence(
  db: Db,
  agentId: number,
  prefs: Preferences,
): Promise<PreferencesAnswer> {
  const licensedStates = await licensedStatesOf(db, agentId);
  const unlicensedStates =
    licensedStates.length === 0 ? [] : prefs.states.filter((s) => !licensedStates.includes(s));
  return { ...prefs, licensedStates, unlicensedStates };
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
): Promise<PreferencesAnswer> {
  return savePreferences(db, agentId, normalizePreferences(prefs)).then((saved) =>
    withLicence(db, agentId, saved),
  );
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
