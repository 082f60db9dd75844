/**
 * The do-not-call list (docs/domain.md, Do-not-call list and consent): E.164 numbers. Imports and the intake refuse leads on it;
 * follow-up messages and calls check it again when they go out.
 */
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/** A text[] literal of E.164 numbers (only '+' and digits ever reach it; quotes are dropped). */
function phoneArray(phones: string[]) {
  return `{${phones.map((p) => `"${p.replace(/["\\]/g, '')}"`).join(',')}}`;
}

/** Adds the numbers (distinct E.164) not yet listed; the ones that were new. */
export async function addToDnc(db: Db, phones: string[], addedBy: number): Promise<string[]> {
  const added: string[] = [];
  for (let i = 0; i < phones.length; i += 10_000) {
    const chunk = phones.slice(i, i + 10_000);
    const rows = await queryRows<{ phone: string }>(
      db,
      sql`insert into dnc_numbers (phone, added_by)
          select p, ${addedBy} from unnest(${phoneArray(chunk)}::text[]) as p
          on conflict (phone) do nothing
          returning phone`,
    );
    for (const row of rows) added.push(row.phone);
  }
  return added;
}

/** Takes a number off the list; false when it was not on it. */
export async function removeFromDnc(db: Db, phone: string): Promise<boolean> {
  const rows = await queryRows<{ phone: string }>(
    db,
    sql`delete from dnc_numbers where phone = ${phone} returning phone`,
  );
  return rows.length > 0;
}

export interface DncRow {
  phone: string;
  added_at: string;
  added_by_id: number | null;
  added_by_name: string | null;
}

/** A page of the list, newest first, the numbers containing `digits` when given. */
export async function listDnc(
  db: Db,
  opts: { digits: string | null; limit: number; offset: number },
): Promise<{ count: number; total: number; rows: DncRow[] }> {
  const match = opts.digits ? sql`where d.phone like ${`%${opts.digits}%`}` : sql``;
  const [counts] = await queryRows<{ count: number; total: number }>(
    db,
    sql`select (select count(*) from dnc_numbers)::int as count,
               (select count(*) from dnc_numbers d ${match})::int as total`,
  );
  const rows = await queryRows<DncRow>(
    db,
    sql`select d.phone, d.created_at as added_at, u.id as added_by_id, u.name as added_by_name
        from dnc_numbers d left join users u on u.id = d.added_by
        ${match}
        order by d.created_at desc, d.phone
        limit ${opts.limit} offset ${opts.offset}`,
  );
  return { count: counts?.count ?? 0, total: counts?.total ?? 0, rows };
}
