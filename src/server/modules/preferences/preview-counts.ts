/**
 * The preview's counts (docs/domain.md, Analytics that explain; decision 021): per category, the last days' leads counted by
 * (day, state, city, age), held in memory per database for PREVIEW_REFRESH_MS and refreshed in
 * the background once older (the stale counts answer meanwhile), so a preview sums a few
 * thousand counts instead of reading a month of leads: a month can hold a million of them.
 */
import type { LeadCategory } from '../../../shared/domain';
import type { Db } from '../../db/client';
import type { FieldTests } from '../fit/fit-rule.service';
import { categoryDayCounts, categoryHourCounts } from './preferences-preview.repository';

/** How old the counts may get before a refresh starts (a new lead shows within about this). */
export const PREVIEW_REFRESH_MS = 60_000;

interface Counts {
  /** the window the counts cover: from (its day 0) and the number of days */
  from: string;
  days: number;
  timeZone: string;
  at: number;
  d: Uint8Array;
  /** each row's state and city as an index into `states` and `cities` (each distinct once) */
  state: Uint16Array;
  city: Uint32Array;
  states: string[];
  cities: string[];
  age: Uint16Array;
  n: Uint32Array;
  /** the category's leads by the hour after the window's start (its spread over each day) */
  hours: Map<number, number>;
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
  const [rows, hourRows] = await Promise.all([
    categoryDayCounts(db, category, from, to, timeZone),
    categoryHourCounts(db, category, from, to, timeZone),
  ]);
  const counts: Counts = {
    from,
    days,
    timeZone,
    at,
    d: new Uint8Array(rows.length),
    state: new Uint16Array(rows.length),
    city: new Uint32Array(rows.length),
    states: [],
    cities: [],
    age: new Uint16Array(rows.length),
    n: new Uint32Array(rows.length),
    hours: new Map(hourRows.map((r) => [r.h, r.n])),
  };
  const stateIndex = new Map<string, number>();
  const cityIndex = new Map<string, number>();
  const indexOf = (index: Map<string, number>, list: string[], value: string) => {
    let at = index.get(value);
    if (at === undefined) {
      at = list.push(value) - 1;
      index.set(value, at);
    }
    return at;
  };
  rows.forEach((r, i) => {
    counts.d[i] = r.d;
    counts.state[i] = indexOf(stateIndex, counts.states, r.state);
    counts.city[i] = indexOf(cityIndex, counts.cities, r.city);
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

/**
 * Leads whose fields pass `testsFor(category)` on each day of the window (index 0: `from`); a
 * category without tests is not counted. Each distinct state, city and age is tested once, then
 * the rows are summed by table look-ups: a month of counts is hundreds of thousands of rows.
 */
export async function matchedPerDay(
  db: Db,
  categories: LeadCategory[],
  testsFor: (category: LeadCategory) => FieldTests | null,
  from: string,
  to: string,
  days: number,
  timeZone: string,
): Promise<number[]> {
  const perDay = new Array<number>(days).fill(0);
  const all = await Promise.all(categories.map((c) => countsFor(db, c, from, to, days, timeZone)));
  all.forEach((c, k) => {
    const tests = testsFor(categories[k]);
    if (!tests?.category(categories[k])) return;
    const stateOk = Uint8Array.from(c.states, (s) => (tests.state(s) ? 1 : 0));
    const cityOk = Uint8Array.from(c.cities, (city) => (tests.city(city) ? 1 : 0));
    const ageOk = new Uint8Array(65_536);
    for (let i = 0; i < c.n.length; i++) {
      if (c.d[i] >= days || !stateOk[c.state[i]] || !cityOk[c.city[i]]) continue;
      const age = c.age[i];
      // 0: not tested yet, 1: fails, 2: passes
      if (ageOk[age] === 0) ageOk[age] = tests.age(age) ? 2 : 1;
      if (ageOk[age] === 2) perDay[c.d[i]] += c.n[i];
    }
  });
  return perDay;
}

/**
 * For each day of the window, the share of the categories' leads that arrived while `within`
 * held (tested at each hour's start: the schedule to the hour); 1 for a day without leads when
 * `within` held at some hour of it, else 0.
 */
export async function sharesWithin(
  db: Db,
  categories: LeadCategory[],
  from: string,
  to: string,
  days: number,
  timeZone: string,
  within: (at: Date) => boolean,
  dayOf: (at: Date) => number,
): Promise<number[]> {
  const all = await Promise.all(categories.map((c) => countsFor(db, c, from, to, days, timeZone)));
  const inside = new Array<number>(days).fill(0);
  const total = new Array<number>(days).fill(0);
  const open = new Array<boolean>(days).fill(false);
  const start = windowStart(from, timeZone);
  // a day has 23 to 25 hours: every hour of the window, whichever day it falls on
  for (let h = 0; h < days * 24 + 2; h++) {
    const at = new Date(start + h * 3_600_000);
    const d = dayOf(at);
    if (d < 0 || d >= days) continue;
    const held = within(at);
    if (held) open[d] = true;
    for (const c of all) {
      const n = c.hours.get(h) ?? 0;
      total[d] += n;
      if (held) inside[d] += n;
    }
  }
  return total.map((n, d) => (n === 0 ? (open[d] ? 1 : 0) : inside[d] / n));
}

/** The instant business date `from` starts in `timeZone` (its midnight there). */
function windowStart(from: string, timeZone: string): number {
  const midnight = Date.parse(`${from}T00:00:00Z`);
  const guess = midnight - offsetAt(midnight, timeZone);
  return midnight - offsetAt(guess, timeZone);
}

/** How far the zone's clock is ahead of UTC at this instant, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - Math.floor(at / 1000) * 1000;
}
