/** The codes sent to verify an agent's phone (`phone_codes`). */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

export interface PhoneCodeRow {
  id: number;
  phone: string;
  codeHash: string;
  tries: number;
  expired: boolean;
  used: boolean;
}

/** Namespace of the per-user code locks (two-int advisory keys: 'LFPC', user id). */
const PHONE_CODE_LOCK = 0x4c465043;

/**
 * Waits for the user's code lock (held to the end of the transaction): two requests for a code at
 * once, in one process or two, are counted one after the other.
 */
export async function lockPhoneCodes(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_CODE_LOCK}::int, ${userId}::int)`);
}

/** Sends in the last `seconds`, and the seconds since the latest (null: none). */
export async function recentSends(
  db: Db,
  userId: number,
  seconds: number,
): Promise<{ count: number; sinceLatest: number | null }> {
  const [row] = await queryRows<{ count: number; since_latest: number | null }>(
    db,
    sql`select count(*)::int as count,
               extract(epoch from now() - max(created_at))::float8 as since_latest
          from phone_codes
         where user_id = ${userId}
           and created_at > now() - make_interval(secs => ${seconds}::int)`,
  );
  return { count: Number(row?.count ?? 0), sinceLatest: row?.since_latest ?? null };
}

export async function insertPhoneCode(
  db: Db,
  input: { userId: number; phone: string; codeHash: string; validSeconds: number },
): Promise<{ expiresAt: string }> {
  const [row] = await queryRows<{ expires_at: string }>(
    db,
    sql`insert into phone_codes (user_id, phone, code_hash, expires_at)
        values (${input.userId}, ${input.phone}, ${input.codeHash},
                now() + make_interval(secs => ${input.validSeconds}::int))
        returning to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at`,
  );
  if (!row) throw new Error('phone code not stored');
  return { expiresAt: row.expires_at };
}

/** The latest code sent to the user, locked for this transaction. */
export async function lockLatestPhoneCode(db: Db, userId: number): Promise<PhoneCodeRow | null> {
  const [row] = await queryRows<{
    id: string;
    phone: string;
    code_hash: string;
    tries: number;
    expired: boolean;
    used: boolean;
  }>(
    db,
    sql`select id, phone, code_hash, tries, expires_at <= now() as expired,
               used_at is not null as used
          from phone_codes where user_id = ${userId}
         order by id desc limit 1 for update`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    phone: row.phone,
    codeHash: row.code_hash,
    tries: Number(row.tries),
    expired: row.expired,
    used: row.used,
  };
}

/** One more try of the code; `used` when it was the right one. */
export async function recordTry(db: Db, id: number, used: boolean): Promise<void> {
  await db.execute(
    sql`update phone_codes set tries = tries + 1,
               used_at = case when ${used}::boolean then now() else used_at end
         where id = ${id}`,
  );
}
