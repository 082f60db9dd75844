import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/** Sets an agent's licensed states; false when there is no such agent. */
export async function writeLicensedStates(
  db: Db,
  agentId: number,
  states: string[],
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update users set licensed_states = ${`{${states.join(',')}}`}::text[]
         where id = ${agentId} and role = 'AGENT' returning id`,
  );
  return rows.length > 0;
}

export async function readLicensedStates(db: Db, agentId: number): Promise<string[]> {
  const [row] = await queryRows<{ states: string[] }>(
    db,
    sql`select licensed_states::text[] as "states" from users where id = ${agentId}`,
  );
  return row?.states ?? [];
}
