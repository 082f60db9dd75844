/** The agent's pause (docs/domain.md, Pause): two columns of users, read here (auth writes them). */
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
