/**
 * The do-not-call list (design 10): E.164 numbers. Imports and the intake refuse leads on it;
 * follow-up messages and calls check it again when they go out.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/** Which of these E.164 numbers are on the list (one statement for any number of them). */
export async function phonesOnDnc(db: Db, phones: string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await queryRows<{ phone: string }>(
    db,
    sql`select phone from dnc_numbers where phone = any(${`{${phones.map((p) => `"${p.replace(/["\\]/g, '')}"`).join(',')}}`}::text[])`,
  );
  return new Set(rows.map((r) => r.phone));
}

/** Whether one number is on the list. */
export async function isOnDnc(db: Db, phone: string): Promise<boolean> {
  return (await phonesOnDnc(db, [phone])).size > 0;
}
