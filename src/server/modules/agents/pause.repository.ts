/** The agent's pause (docs/domain.md, Pause): two columns of users, read and written here. */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export interface PauseRow {
  since: Date | string | null;
  /** the last paused business date; null while paused until resumed */
  through: string | null;
  paused: boolean;
}

/** The pause as of now: `paused` by the shared rule (paused_at set, paused_until unset or ahead). */
export async function readPause(db: Db, userId: number, timeZone: string): Promise<PauseRow> {
  const [row] = await queryRows<PauseRow>(
    db,
    sql`select paused_at as "since",
               to_char((paused_until at time zone ${timeZone})::date - 1, 'YYYY-MM-DD') as "through",
               (paused_at is not null and (paused_until is null or paused_until > now())) as "paused"
          from users where id = ${userId}`,
  );
  return row ?? { since: null, through: null, paused: false };
}

/**
 * Pauses the agent through `through` (a business date: the pause ends at the start of the next
 * business day in the business time zone, daylight saving included), or until resumed (null).
 * A pause already running keeps its start.
 */
export async function writePause(
  db: Db,
  userId: number,
  through: string | null,
  timeZone: string,
): Promise<void> {
  const until =
    through === null
      ? sql`null`
      : sql`((${through}::date + 1)::timestamp at time zone ${timeZone})`;
  await db.execute(
    sql`update users
           set paused_at = case when paused_at is not null
                                 and (paused_until is null or paused_until > now())
                                then paused_at else now() end,
               paused_until = ${until}
         where id = ${userId}`,
  );
}

export async function clearPause(db: Db, userId: number): Promise<void> {
  await db.execute(
    sql`update users set paused_at = null, paused_until = null where id = ${userId}`,
  );
}
