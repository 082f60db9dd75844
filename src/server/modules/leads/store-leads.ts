import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/client';
import type { ParsedLead } from './lead-csv';

export interface StoreContext {
  importId: number;
  /** the admin who imports (kept on the IMPORTED history rows) */
  actorId: number | null;
}

export interface StoredBatch {
  imported: number;
  /** rows whose externalId was already stored: skipped, not stored twice */
  duplicates: number;
}

/**
 * Stores one batch of parsed leads set-based: one statement inserts the leads (skipping
 * externalIds that already exist) and their IMPORTED history rows. The rows travel as one JSON
 * parameter, so a batch of any size is a single round trip under the bind-parameter limit.
 * A COPY fast path can replace this function without touching its callers.
 */
export async function storeLeadBatch(
  db: Pick<Db, 'execute'>,
  batch: readonly ParsedLead[],
  ctx: StoreContext,
): Promise<StoredBatch> {
  if (batch.length === 0) return { imported: 0, duplicates: 0 };
  const rows = batch.map((l) => ({
    e: l.externalId,
    f: l.firstName,
    l: l.lastName,
    p: l.phone,
    m: l.email,
    c: l.city,
    s: l.state,
    a: l.age,
    g: l.category,
    n: l.line,
  }));
  const [result] = await queryRows<{ imported: number }>(
    db,
    sql`
      with input as (
        select * from json_to_recordset(${JSON.stringify(rows)}::json)
          as r(e text, f text, l text, p text, m text, c text, s text, a int, g lead_category, n int)
      ),
      inserted as (
        insert into leads (external_id, first_name, last_name, phone, email, city, state, age,
                           category, import_id)
        select e, f, l, p, m, c, s, a, g, ${ctx.importId}::int from input order by n
        on conflict (external_id) do nothing
        returning id
      ),
      history as (
        insert into lead_history (lead_id, kind, actor_id, to_status)
        select id, 'IMPORTED', ${ctx.actorId}::int, 'NEW' from inserted
      )
      select count(*)::int as imported from inserted`,
  );
  return { imported: result.imported, duplicates: batch.length - result.imported };
}
