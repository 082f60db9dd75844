import type {
  PreferencesPreview,
  PreferencesPreviewQuery,
} from '../../../shared/contracts/explain';
import { LEAD_CATEGORIES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { agentPackageFacts } from './preferences-preview.repository';
import { matchedPerDay } from './preview-counts';

/** Days the preview looks back over, today (so far) included: a lead stored now shows at once. */
export const PREVIEW_DAYS = 30;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** How cities are compared: as the engine's normalizeCity (docs/domain.md, Assignment). */
function normalizeCity(city: string): string {
  return city.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * How many leads the preferences being edited would have matched over the last PREVIEW_DAYS
 * business days, per day, against the package's leads a day (docs/domain.md, Analytics that explain). The fit is the
 * engine's: the package's category (if the preferences keep it), the licence, states, cities,
 * ages; whether the lead went to someone else is not asked.
 */
export async function previewPreferences(
  db: Db,
  agentId: number,
  timeZone: string,
  q: PreferencesPreviewQuery,
  now: Date = new Date(),
): Promise<PreferencesPreview> {
  const pkg = await agentPackageFacts(db, agentId);
  const chosen = q.categories;
  const categories = pkg.category
    ? chosen.length === 0 || chosen.includes(pkg.category)
      ? [pkg.category]
      : []
    : chosen.length === 0
      ? [...LEAD_CATEGORIES]
      : LEAD_CATEGORIES.filter((c) => chosen.includes(c));
  const today = businessDate(timeZone, now);
  const from = addDays(today, -(PREVIEW_DAYS - 1));
  const to = today;
  const perDay = await matchedPerDay(
    db,
    {
      categories,
      states: [...new Set(q.states)],
      licensedStates: pkg.licensedStates,
      cities: [...new Set(q.cities.map(normalizeCity).filter((c) => c !== ''))],
      ageMin: q.ageMin ?? null,
      ageMax: q.ageMax ?? null,
    },
    from,
    to,
    PREVIEW_DAYS,
    timeZone,
  );
  const daily: PreferencesPreview['daily'] = perDay.map((count, i) => ({
    date: addDays(from, i),
    count,
  }));
  const matched = perDay.reduce((sum, n) => sum + n, 0);
  return {
    days: PREVIEW_DAYS,
    packageLeadsPerDay: pkg.leadsPerDay,
    category: pkg.category,
    licensedStates: pkg.licensedStates,
    matched,
    perDay: Math.round((matched / PREVIEW_DAYS) * 10) / 10,
    daily,
  };
}
