/**
 * The preview's counts (docs/domain.md, Analytics that explain; decision 021): per category, the last days' leads counted by
 * (day, state, city, age), held in memory per database for PREVIEW_REFRESH_MS and refreshed in
 * the background once older (the stale counts answer meanwhile), so a preview sums a few
 * thousand counts instead of reading a month of leads: a month can hold a million of them.
 */
import type { LeadCategory } from '../../../shared/domain';
import type { Db } from '../../db/client';
import type { FitLead } from '../fit/fit-rule.service';
import { categoryDayCounts } from './preferences-preview.repository';

/** How old the counts may get before a refresh starts (a new lead shows within about this). */
export const PREVIEW_REFRESH_MS = 60_000;

interface Counts {
  /** the window the counts cover: from (its day 0) and the number of days */
  from: string;
  days: number;
  timeZone: string;
  at: number;
  d: Uint8Array;
  state: string[];
  city: string[];
  age: Uint16Array;
  n: Uint32Array;
}

interface Slot {
  counts: Counts | null;
  loading: Promise<Counts> | null;
}

const byDb = new WeakMap<Db, Map<string, Slot>>();

async function load(
  db: Db,
  category: LeadCategory,
  from: string,
  to: string,
  days: number,
  timeZone: string,
): Promise<Counts> {
  const at = Date.now();
  const rows = await categoryDayCounts(db, category, from, to, timeZone);
  const counts: Counts = {
    from,
    days,
    timeZone,
    at,
    d: new Uint8Array(rows.length),
    state: new Array(rows.length),
    city: new Array(rows.length),
    age: new Uint16Array(rows.length),
    n: new Uint32Array(rows.length),
  };
  rows.forEach((r, i) => {
    counts.d[i] = r.d;
    counts.state[i] = r.state;
    counts.city[i] = r.city;
    counts.age[i] = Math.max(0, Math.min(65_535, r.age));
    counts.n[i] = r.n;
  });
  return counts;
}

/** The category's counts for the window from..to; fresh ones when the window moved. */
async function countsFor(
  db: Db,
  category: LeadCategory,
  from: string,
  to: string,
  days: number,
  timeZone: string,
): Promise<Counts> {
  let slots = byDb.get(db);
  if (!slots) {
    slots = new Map();
    byDb.set(db, slots);
  }
  const key = `${category}|${timeZone}`;
  let slot = slots.get(key);
  if (!slot) {
    slot = { counts: null, loading: null };
    slots.set(key, slot);
  }
  const current = slot.counts;
  const usable = current && current.from === from && current.days === days;
  const stale = !current || Date.now() - current.at > PREVIEW_REFRESH_MS;
  if ((!usable || stale) && !slot.loading) {
    const s = slot;
    s.loading = load(db, category, from, to, days, timeZone)
      .then((counts) => {
        s.counts = counts;
        return counts;
      })
      .finally(() => {
        s.loading = null;
      });
  }
  // a moved window waits for its counts; a stale one answers now and is replaced soon
  if (usable && current) return current;
  return (slot.loading ?? Promise.resolve(slot.counts)) as Promise<Counts>;
}

/** Leads the predicate accepts on each day of the window (index 0: `from`). */
export async function matchedPerDay(
  db: Db,
  categories: LeadCategory[],
  fits: (lead: FitLead) => boolean,
  from: string,
  to: string,
  days: number,
  timeZone: string,
): Promise<number[]> {
  const perDay = new Array<number>(days).fill(0);
  const all = await Promise.all(categories.map((c) => countsFor(db, c, from, to, days, timeZone)));
  const lead: FitLead = { category: categories[0], state: '', city: '', age: 0 };
  all.forEach((c, k) => {
    lead.category = categories[k];
    for (let i = 0; i < c.n.length; i++) {
      if (c.d[i] >= days) continue;
      lead.state = c.state[i];
      lead.city = c.city[i];
      lead.age = c.age[i];
      if (fits(lead)) perDay[c.d[i]] += c.n[i];
    }
  });
  return perDay;
}
