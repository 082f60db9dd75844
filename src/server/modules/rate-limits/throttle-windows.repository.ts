/**
 * The `throttle_windows` counters (decision 039): one row per key, its window opened by its first
 * attempt. Every statement is one round trip, so processes sharing the database count together.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/**
 * A key as PostgreSQL text can hold it: a lone UTF-16 surrogate or a NUL (a login's email may
 * carry one) becomes U+FFFD, so such an attempt is counted like any other instead of failing.
 */
function storable(key: string): string {
  return key
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replaceAll('\0', '\uFFFD');
}

export interface Limit {
  key: string;
  max: number;
}

/**
 * Counts one attempt against every key (a key whose window has ended starts a new one); answers
 * each key's attempts in its window (this one included), its limit, and the milliseconds left.
 * Keys are written in order, so two attempts sharing keys cannot deadlock.
 */
export async function countAttempt(
  db: Db,
  limits: readonly Limit[],
  windowMs: number,
): Promise<{ key: string; hits: number; max: number; msLeft: number }[]> {
  const stored = limits.map((l) => ({ key: storable(l.key), max: l.max }));
  const rows = await queryRows<{ key: string; hits: number; max: number; ms_left: number }>(
    db,
    sql`with lim as (
          select * from jsonb_to_recordset(${JSON.stringify(stored)}::jsonb) as l(key text, max int)),
        hit as (
          insert into throttle_windows as t (key, hits, resets_at)
          select key, 1, now() + make_interval(secs => ${windowMs / 1000}::float8)
            from lim order by key
          on conflict (key) do update
            set hits = case when t.resets_at <= now() then 1 else t.hits + 1 end,
                resets_at = case when t.resets_at <= now() then excluded.resets_at else t.resets_at end
          returning t.key, t.hits, t.resets_at)
        select hit.key, hit.hits, lim.max,
               ceil(extract(epoch from hit.resets_at - now()) * 1000)::int as ms_left
          from hit join lim using (key)`,
  );
  return rows.map((r) => ({
    key: r.key,
    hits: Number(r.hits),
    max: Number(r.max),
    msLeft: Number(r.ms_left),
  }));
}

/**
 * Gives back one attempt to each key whose window is still open. The rows are locked in key
 * order, as countAttempt writes them: in any other order two attempts could deadlock.
 */
export async function uncountAttempt(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(
    sql`update throttle_windows t set hits = t.hits - 1
          from (select key from throttle_windows
                 where key in (${sql.join(
                   keys.map((key) => sql`${storable(key)}`),
                   sql`, `,
                 )}) and hits > 0 and resets_at > now()
                 order by key for update) locked
         where t.key = locked.key`,
  );
}

/** Forgets a key's window (a success clears its failures). */
export async function forgetWindow(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from throttle_windows where key = ${storable(key)}`);
}

/** Deletes the windows that ended (the sweeper's: such a row limits nothing). */
export async function deleteEndedWindows(db: Db): Promise<number> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`delete from throttle_windows where resets_at <= now() returning key`,
  );
  return rows.length;
}
