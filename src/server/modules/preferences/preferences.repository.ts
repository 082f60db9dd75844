import { eq, sql } from 'drizzle-orm';
import type { Preferences } from '../../../shared/contracts/agent';
import type { Db } from '../../db/client';
import { preferences } from '../../db/schema';

export const NO_PREFERENCES: Preferences = {
  states: [],
  cities: [],
  ageMin: null,
  ageMax: null,
  categories: [],
};

export async function findPreferences(db: Db, userId: number): Promise<Preferences | null> {
  const [row] = await db
    .select({
      states: preferences.states,
      cities: preferences.cities,
      ageMin: preferences.ageMin,
      ageMax: preferences.ageMax,
      categories: preferences.categories,
    })
    .from(preferences)
    .where(eq(preferences.userId, userId))
    .limit(1);
  return row ?? null;
}

export async function savePreferences(
  db: Db,
  userId: number,
  prefs: Preferences,
): Promise<Preferences> {
  const values = {
    states: prefs.states,
    cities: prefs.cities,
    ageMin: prefs.ageMin,
    ageMax: prefs.ageMax,
    categories: prefs.categories,
  };
  const [row] = await db
    .insert(preferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: preferences.userId, set: { ...values, updatedAt: sql`now()` } })
    .returning({
      states: preferences.states,
      cities: preferences.cities,
      ageMin: preferences.ageMin,
      ageMax: preferences.ageMax,
      categories: preferences.categories,
    });
  return row;
}
