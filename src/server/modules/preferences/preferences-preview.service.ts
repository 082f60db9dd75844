import type {
  PreferencesPreview,
  PreferencesPreviewQuery,
} from '../../../shared/contracts/analytics';
import type { LeadCategory } from '../../../shared/domain';
import { LEAD_CATEGORIES } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { businessDate, monthStartOf, weekStartOf } from '../../lib/business-time';
import { type AgentSchedule, fieldTests, fitProfile, inSchedule } from '../fit/fit-rule.service';
import { type AgentLimits, agentLimits, agentPackageFacts } from './preferences-preview.repository';
import { matchedPerDay, sharesWithin } from './preview-counts';

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
  const limits = await agentLimits(db, agentId);
  const withinLimits = await limitedPerDay(db, {
    perDay,
    limits,
    categories,
    from,
    to,
    timeZone,
    quota: pkg.leadsPerDay,
  });
  return {
    days: PREVIEW_DAYS,
    packageLeadsPerDay: pkg.leadsPerDay,
    category: pkg.category,
    licensedStates: pkg.licensedStates,
    matched,
    perDay: Math.round((matched / PREVIEW_DAYS) * 10) / 10,
    daily,
    withinLimits,
  };
}

type Bound = NonNullable<PreferencesPreview['withinLimits']>['bounds'][number];

/**
 * The matches per day as the agent would have received them inside their schedule and caps: a
 * day's matches scaled by the share of the category's leads that arrived inside the schedule's
 * hours that day (the schedule to the hour), then at most the day's quota (the package's leads a
 * day, lowered by the daily cap), then within what the weekly cap (weeks from Monday), the monthly
 * cap and, on a pay-per-lead package, the monthly budget at the highest price leave of their
 * period, day by day. Null when the agent set no schedule and no cap.
 */
async function limitedPerDay(
  db: Db,
  input: {
    perDay: number[];
    limits: AgentLimits;
    categories: LeadCategory[];
    from: string;
    to: string;
    timeZone: string;
    quota: number | null;
  },
): Promise<PreferencesPreview['withinLimits']> {
  const { limits, from, timeZone } = input;
  const budgetLeads =
    limits.monthlyBudgetCents !== null && limits.highestCents !== null
      ? Math.floor(limits.monthlyBudgetCents / Math.max(1, limits.highestCents))
      : null;
  const set = [limits.schedule, limits.daily, limits.weekly, limits.monthly, budgetLeads];
  if (set.every((v) => v === null)) return null;
  const bounds = new Set<Bound>();
  let counts = input.perDay.map((n) => n);
  const schedule = limits.schedule as AgentSchedule | null;
  if (schedule) {
    const shares = await sharesWithin(
      db,
      input.categories,
      from,
      input.to,
      PREVIEW_DAYS,
      timeZone,
      (at) => inSchedule(schedule, at),
      (at) => daysBetween(from, businessDate(timeZone, at)),
    );
    const scaled = counts.map((n, d) => Math.round(n * shares[d]));
    if (scaled.some((n, d) => n < counts[d])) bounds.add('SCHEDULE');
    counts = scaled;
  }
  const daily = Math.min(
    input.quota ?? Number.POSITIVE_INFINITY,
    limits.daily ?? Number.POSITIVE_INFINITY,
  );
  counts = counts.map((n) => {
    if (n > daily) bounds.add('DAILY_CAP');
    return Math.min(n, daily);
  });
  const periods: [Bound, number | null, (date: string) => string][] = [
    ['WEEKLY_CAP', limits.weekly, weekStartOf],
    ['MONTHLY_CAP', limits.monthly, monthStartOf],
    ['BUDGET', budgetLeads, monthStartOf],
  ];
  for (const [bound, cap, periodOf] of periods) {
    if (cap === null) continue;
    const used = new Map<string, number>();
    counts = counts.map((n, d) => {
      const period = periodOf(addDays(from, d));
      const left = Math.max(0, cap - (used.get(period) ?? 0));
      const given = Math.min(n, left);
      if (given < n) bounds.add(bound);
      used.set(period, (used.get(period) ?? 0) + given);
      return given;
    });
  }
  const total = counts.reduce((sum, n) => sum + n, 0);
  return {
    perDay: Math.round((total / PREVIEW_DAYS) * 10) / 10,
    daily: counts.map((count, i) => ({ date: addDays(from, i), count })),
    bounds: [...bounds],
  };
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}
