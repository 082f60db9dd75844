/**
 * The privacy module's tables (docs/domain.md, Consumer deletion and retention): the contact
 * hashes' key, the deletion requests, the suppressed contacts' hashes and the tasks left to do
 * outside the database.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PrivacyTaskKind, PrivacyTaskStatus } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';

/** The key of the contact hashes, made at the first deletion (the first process to insert wins). */
export async function ensurePrivacyKey(tx: Db): Promise<string> {
  await tx.execute(
    sql`insert into privacy_key (id, key) values (1, ${randomBytes(32).toString('hex')})
        on conflict (id) do nothing`,
  );
  const [row] = await queryRows<{ key: string }>(tx, sql`select key from privacy_key where id = 1`);
  if (!row) throw new Error('privacy key missing after insert');
  return row.key;
}

export async function insertDeletion(
  tx: Db,
  d: { requestedBy: number; byPhone: boolean; byEmail: boolean; leads: number },
): Promise<{ id: number; createdAt: string }> {
  const [row] = await queryRows<{ id: number; createdAt: string }>(
    tx,
    sql`insert into privacy_deletions (requested_by, by_phone, by_email, leads)
        values (${d.requestedBy}, ${d.byPhone}, ${d.byEmail}, ${d.leads})
        returning id, ${isoInstant(sql`created_at`)} as "createdAt"`,
  );
  return row as { id: number; createdAt: string };
}

/** Keeps the hashes of the consumer's phone and email (a repeated request keeps the first's). */
export async function suppressContacts(
  tx: Db,
  deletionId: number,
  key: string,
  contact: { phone: string | null; email: string | null },
): Promise<void> {
  await tx.execute(
    sql`insert into suppressed_contacts (hash, deletion_id)
        select h, ${deletionId}::int
          from (values (contact_hash(${key}, 'phone', ${contact.phone}::text)),
                       (contact_hash(${key}, 'email', ${contact.email}::text))) v(h)
         where h is not null
        on conflict (hash) do nothing`,
  );
}

export interface NewTask {
  kind: PrivacyTaskKind;
  agentId?: number;
  leadIds?: number[];
  recordingSid?: string;
}

export async function insertTasks(
  tx: Db,
  deletionId: number | null,
  tasks: NewTask[],
): Promise<number[]> {
  if (tasks.length === 0) return [];
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`insert into privacy_tasks (deletion_id, kind, agent_id, lead_ids, recording_sid)
        select ${deletionId}::int, t.kind::privacy_task_kind, t.agent_id, t.lead_ids, t.recording_sid
          from jsonb_to_recordset(${JSON.stringify(
            tasks.map((t) => ({
              kind: t.kind,
              agent_id: t.agentId ?? null,
              lead_ids: t.leadIds ?? null,
              recording_sid: t.recordingSid ?? null,
            })),
          )}::jsonb) as t(kind text, agent_id int, lead_ids bigint[], recording_sid text)
        returning id::text`,
  );
  return rows.map((r) => Number(r.id));
}

export interface TaskRow {
  id: number;
  deletionId: number | null;
  kind: PrivacyTaskKind;
  agentId: number | null;
  leadIds: number[] | null;
  recordingSid: string | null;
  attempts: number;
  createdAt: Date;
}

/**
 * A task still PENDING. Not locked: no connection is held while the CRM or the provider answers;
 * what settles it names the attempt it read, so a second worker's outcome is not counted twice.
 */
export async function pendingTask(db: Db, id: number): Promise<TaskRow | null> {
  const [row] = await queryRows<
    Omit<TaskRow, 'leadIds' | 'createdAt'> & {
      leadIds: string[] | null;
      createdAt: string;
    }
  >(
    db,
    sql`select id::int, deletion_id as "deletionId", kind, agent_id as "agentId",
               lead_ids::text[] as "leadIds", recording_sid as "recordingSid", attempts,
               ${isoInstant(sql`created_at`)} as "createdAt"
          from privacy_tasks where id = ${id} and status = 'PENDING'`,
  );
  if (!row) return null;
  return {
    ...row,
    leadIds: row.leadIds ? row.leadIds.map(Number) : null,
    createdAt: new Date(row.createdAt),
  };
}

/** Ends the attempt read as `task`: answers false when another worker ended it first. */
export async function settleTask(
  tx: Db,
  task: Pick<TaskRow, 'id' | 'attempts'>,
  status: Exclude<PrivacyTaskStatus, 'PENDING'>,
  error: string | null,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update privacy_tasks set status = ${status}::privacy_task_status, error = ${error},
          attempts = attempts + 1, done_at = now()
        where id = ${task.id} and status = 'PENDING' and attempts = ${task.attempts}
        returning id::int`,
  );
  return rows.length > 0;
}

/** The attempt read as `task` failed: the task waits until `at` (false: another worker ended it). */
export async function postponeTask(
  tx: Db,
  task: Pick<TaskRow, 'id' | 'attempts'>,
  error: string,
  at: Date,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update privacy_tasks set attempts = attempts + 1, error = ${error},
          next_attempt_at = ${at.toISOString()}::timestamptz
        where id = ${task.id} and status = 'PENDING' and attempts = ${task.attempts}
        returning id::int`,
  );
  return rows.length > 0;
}

/** PENDING tasks whose time passed more than `graceSeconds` ago: their job was lost. */
export async function overdueTasks(
  db: Db,
  graceSeconds: number,
): Promise<{ id: number; attempts: number }[]> {
  return queryRows<{ id: number; attempts: number }>(
    db,
    sql`select id::int, attempts from privacy_tasks
         where status = 'PENDING'
           and next_attempt_at < now() - make_interval(secs => ${graceSeconds})
         order by next_attempt_at limit 500`,
  );
}

export interface DeletionRow {
  id: number;
  createdAt: string;
  requestedById: number | null;
  requestedByName: string | null;
  byPhone: boolean;
  byEmail: boolean;
  leads: number;
  tasks: { kind: PrivacyTaskKind; status: PrivacyTaskStatus; n: number }[];
}

export async function listDeletions(
  db: Db,
  page: { limit: number; offset: number },
  onlyId?: number,
): Promise<{ total: number; rows: DeletionRow[] }> {
  const [count] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from privacy_deletions`,
  );
  const rows = await queryRows<DeletionRow>(
    db,
    sql`select d.id, ${isoInstant(sql`d.created_at`)} as "createdAt",
               d.requested_by as "requestedById", u.name as "requestedByName",
               d.by_phone as "byPhone", d.by_email as "byEmail", d.leads,
               coalesce((select jsonb_agg(jsonb_build_object('kind', t.kind, 'status', t.status, 'n', t.n))
                           from (select kind, status, count(*)::int as n from privacy_tasks
                                  where deletion_id = d.id group by kind, status) t), '[]'::jsonb) as tasks
          from privacy_deletions d
          left join users u on u.id = d.requested_by
         where ${onlyId ?? null}::int is null or d.id = ${onlyId ?? null}::int
         order by d.id desc
         limit ${page.limit} offset ${page.offset}`,
  );
  return { total: count?.total ?? 0, rows };
}
