/** The fixed-window counters of `rate_counters`: one row per key and window. */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/**
 * Counts one hit of `key` in the window of `windowSeconds` that holds now; answers the window's
 * hits (this one included) and the seconds left in it. One statement, so processes sharing the
 * database count together. The first hit of a window deletes the key's older windows.
 */
export async function countHit(
  db: Db,
  key: string,
  windowSeconds: number,
): Promise<{ hits: number; secondsLeft: number }> {
  const [row] = await queryRows<{ hits: number; seconds_left: number }>(
    db,
    sql`with w as (
          select to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}::int)
                              * ${windowSeconds}::int) as start),
        hit as (
          insert into rate_counters (key, window_start, hits)
          select ${key}, w.start, 1 from w
          on conflict (key, window_start) do update set hits = rate_counters.hits + 1
          returning hits, window_start),
        old as (
          delete from rate_counters r using hit
           where hit.hits = 1 and r.key = ${key} and r.window_start < hit.window_start)
        select hit.hits,
               ceil(extract(epoch from hit.window_start + make_interval(secs => ${windowSeconds}::int) - now()))::int
                 as seconds_left
          from hit`,
  );
  if (!row) throw new Error('rate counter: no row');
  return { hits: Number(row.hits), secondsLeft: Math.max(1, Number(row.seconds_left)) };
}

/** The hits of `key` in the window that holds now, without counting one. */
export async function currentHits(db: Db, key: string, windowSeconds: number): Promise<number> {
  const [row] = await queryRows<{ hits: number }>(
    db,
    sql`select hits from rate_counters
         where key = ${key}
           and window_start = to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}::int)
                                           * ${windowSeconds}::int)`,
  );
  return Number(row?.hits ?? 0);
}
