import type {
  PreferencesPreview,
  PreferencesPreviewQuery,
} from '../../../shared/contracts/analytics';
import { LEAD_CATEGORIES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { businessDate } from '../../lib/business-time';
import { fieldTests, fitProfile } from '../fit/fit-rule.service';
import { agentPackageFacts } from './preferences-preview.repository';
import { matchedPerDay } from './preview-counts';

/** Days the preview looks back over, today (so far) included: a lead stored now shows at once. */
export const PREVIEW_DAYS = 30;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * How many leads the preferences being edited would have matched over the last PREVIEW_DAYS
 * business days, per day, against the package's leads a day (docs/domain.md,
 * Analytics that explain). The fit is the fit rule's lead conditions (modules/fit): the package's category (if
 * the preferences keep it), the licence, states, cities, ages; whether the lead went to someone
 * else, and the agent conditions (pause, enrollment window), are not asked.
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
  // the edited preferences as an agent of each counted category (the package's, or the
  // chosen ones when there is no package yet)
  const profiles = new Map(
    categories.map((category) => [
      category,
      fitProfile(
        {
          id: agentId,
          // only an approved agent reaches the preview (docs/domain.md, Accounts)
          approved: true,
          category,
          quota: pkg.leadsPerDay ?? 0,
          enrollmentOnly: false,
          disabled: false,
          // the preview asks the lead conditions only
          agencyId: null,
          agencySuspended: false,
          agencyCap: null,
          schedule: null,
          weeklyCap: null,
          monthlyCap: null,
          perLead: null,
          pausedAt: null,
          pausedUntil: null,
          states: q.states,
          cities: q.cities,
          ageMin: q.ageMin ?? null,
          ageMax: q.ageMax ?? null,
          categories: [],
          licensedStates: pkg.licensedStates,
        },
        { now, businessDate: today, windows: {} },
      ),
    ]),
  );
  const perDay = await matchedPerDay(
    db,
    categories,
    (category) => {
      const profile = profiles.get(category);
      return profile ? fieldTests(profile, category) : null;
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
