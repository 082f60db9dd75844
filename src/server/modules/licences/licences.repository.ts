import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export async function readLicensedStates(db: Db, agentId: number): Promise<string[]> {
  const [row] = await queryRows<{ states: string[] }>(
    db,
    sql`select licensed_states::text[] as "states" from users where id = ${agentId}`,
  );
  return row?.states ?? [];
}
