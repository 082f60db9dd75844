/**
 * The reads behind each process's copy of the agents' fit columns (decision 043): the agents with
 * an ACTIVE subscription as the fit rule reads them, and the version of that data (the sum of
 * fit_roster_changes' weights) a statement sees.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryPreparedRows, queryRows } from '../../db/client';
import type { FitAgent } from './fit-rule.service';
import { FIT_AGENCY_JOIN, FIT_AGENT_COLUMNS } from './fit-rule-sql.service';

/** The version of the agents' fit columns this statement sees. */
/**
 * The version of what the fit rule reads of the agents (decision 043), as an expression: the sum
 * of the change rows' weights, as the statement that holds it sees them.
 */
export const ROSTER_VERSION_SQL = sql`(select coalesce(sum(weight), 0)::float8 from fit_roster_changes)`;

export async function readRosterVersion(db: Db): Promise<number> {
  const [row] = await queryPreparedRows<{ version: number }>(
    db,
    sql`select ${ROSTER_VERSION_SQL} as version`,
  );
  return row.version;
}

/**
 * Agents (role AGENT) with an ACTIVE subscription to a package, with their preferences, licence,
 * pause, schedule, caps and agency: what the fit rule reads of them, in id order.
 */
export async function readActiveAgents(tx: Db): Promise<FitAgent[]> {
  return queryRows<FitAgent>(
    tx,
    sql`select ${FIT_AGENT_COLUMNS}
          from users u
          join subscriptions s on s.user_id = u.id and s.status = 'ACTIVE'
          join packages p on p.id = s.package_id
          left join preferences pr on pr.user_id = u.id
          ${FIT_AGENCY_JOIN}
         where u.role = 'AGENT'
         order by u.id`,
  );
}

/**
 * Folds the change rows into one whose weight is their sum (the sum, the version, is unchanged),
 * when there are more than `keep`. Rows another transaction inserts meanwhile are left alone.
 */
export async function foldRosterChanges(db: Db, keep: number): Promise<void> {
  await db.execute(
    sql`with counted as (select count(*) as n from fit_roster_changes),
             gone as (
               delete from fit_roster_changes
                where (select n from counted) > ${keep}
                  and id < (select max(id) from fit_roster_changes)
               returning weight)
        insert into fit_roster_changes (weight)
        select sum(weight) from gone having count(*) > 0`,
  );
}
