/**
 * The assignment engine's queries: a few set-based statements per run, never one per lead or per
 * agent. They take a Db so that they run inside the run's transaction.
 */

import { desc, eq, sql } from 'drizzle-orm';
import type { AssignmentRun } from '../../../shared/contracts/admin';
import type { AssignmentTrigger, LeadCategory } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { assignmentRuns } from '../../db/schema';
import { readActiveAgents as readFitAgents } from '../fit/fit-roster.service';
import type { AgentRow } from './eligibility';
import type { LeadGroup } from './lead-classes';
import { lockQuotasExclusive } from './quota-lock';
import type { LeadSpan } from './solver-graph';

/**
 * Waits for every other run (any process) and every manual assignment in flight to finish; held
 * until the transaction ends, so no manual assignment commits between the run's read of the
 * quotas and its write.
 */
export async function lockRuns(tx: Db): Promise<void> {
  await lockQuotasExclusive(tx);
}

/** Agents (role AGENT) with an ACTIVE subscription: what the fit rule reads of them (modules/fit). */
export async function readActiveAgents(tx: Db): Promise<AgentRow[]> {
  return (await readFitAgents(tx)) as AgentRow[];
}

interface GroupRow {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  /** 'id:epochSeconds' pairs, comma-separated. */
  leads: string;
}

/**
 * Before the candidate reads: room for the aggregation of a large pool in memory (the default
 * 4MB would spill to disk), and hashing rather than sorting: string_agg's state makes the
 * planner guess hash tables large and pick a sort of the whole pool by a text column (12 s
 * instead of 4 on a million leads). `set local` lasts to the end of the run; its writes neither
 * sort nor need to.
 */
export async function prepareLeadReads(tx: Db): Promise<void> {
  await tx.execute(sql`set local work_mem = '256MB'`);
  await tx.execute(sql`set local enable_sort = off`);
}

/**
 * Candidate leads (NEW, no agent) of a category grouped by (category, state, city, age) in the
 * database: one row per group whatever the number of leads, the leads packed in one string as
 * 'id:epochSeconds' pairs. Cities are grouped as stored (the class builder normalizes them); the
 * leads come unordered (hash aggregation, no sort of the whole pool).
 */
export async function readLeadGroups(tx: Db, category: LeadCategory): Promise<LeadGroup[]> {
  const rows = await queryRows<GroupRow>(
    tx,
    sql`select category::text as "category", state, city, age,
               string_agg(id::text || ':' || date_part('epoch', created_at)::text, ',') as "leads"
          from leads
         where status = 'NEW' and agent_id is null and category = ${category}::lead_category
         group by category, state, city, age`,
  );
  // all the pool's leads in two columns, each group a span of them
  let total = 0;
  for (const row of rows) total += countPairs(row.leads);
  const id = new Float64Array(total);
  const createdAt = new Float64Array(total);
  let end = 0;
  return rows.map((row) => {
    const start = end;
    end = unpackInto(row.leads, id, createdAt, start);
    return {
      category: row.category,
      state: row.state,
      city: row.city,
      age: row.age,
      leads: { id, createdAt, start, end },
    };
  });
}

function countPairs(packed: string): number {
  if (packed.length === 0) return 0;
  let n = 1;
  for (let i = packed.indexOf(','); i >= 0; i = packed.indexOf(',', i + 1)) n++;
  return n;
}

/** 'id:seconds,...' to leads (createdAt in epoch microseconds) in their own columns. */
export function unpackLeads(packed: string): LeadSpan {
  const n = countPairs(packed);
  const id = new Float64Array(n);
  const createdAt = new Float64Array(n);
  return { id, createdAt, start: 0, end: unpackInto(packed, id, createdAt, 0) };
}

/**
 * Parses 'id:seconds,...' into the columns from position `at`; returns the next free position.
 * By hand: a pool of a million leads would otherwise allocate two substrings per lead. Seconds
 * come as PostgreSQL prints a double ('1781000000.123456'); anything unusual (a sign, an
 * exponent) takes the slow path.
 */
function unpackInto(
  packed: string,
  ids: Float64Array,
  createdAts: Float64Array,
  at: number,
): number {
  let p = at;
  const n = packed.length;
  let i = 0;
  while (i < n) {
    let id = 0;
    let c = packed.charCodeAt(i);
    while (c !== 58 /* : */) {
      id = id * 10 + (c - 48);
      c = packed.charCodeAt(++i);
    }
    const start = ++i;
    let seconds = 0;
    let micros = 0;
    let digits = -1; // fraction digits read, -1 before the point
    let plain = true;
    for (; i < n; i++) {
      c = packed.charCodeAt(i);
      if (c === 44 /* , */) break;
      if (c >= 48 && c <= 57) {
        if (digits < 0) seconds = seconds * 10 + (c - 48);
        else if (digits < 6) {
          micros = micros * 10 + (c - 48);
          digits++;
        } else plain = false; // more than microseconds: round through Number below
      } else if (c === 46 /* . */ && digits < 0) digits = 0;
      else plain = false;
    }
    let createdAt: number;
    if (plain) {
      for (let d = Math.max(digits, 0); d < 6; d++) micros *= 10;
      createdAt = seconds * 1e6 + micros;
    } else {
      createdAt = Math.round(Number(packed.slice(start, i)) * 1e6);
    }
    ids[p] = id;
    createdAts[p++] = createdAt;
    i++;
  }
  return p;
}

export interface RunStart {
  trigger: AssignmentTrigger;
  businessDate: string;
  scheduleKey: string | null;
}

/** The run's row; null when a scheduled run already holds this schedule key. */
export async function insertRun(tx: Db, run: RunStart): Promise<number | null> {
  const [row] = await tx
    .insert(assignmentRuns)
    .values(run)
    .onConflictDoNothing({ target: assignmentRuns.scheduleKey })
    .returning({ id: assignmentRuns.id });
  return row?.id ?? null;
}

export interface RunFigures {
  eligibleAgents: number;
  candidateLeads: number;
  assigned: number;
  durationMs: number;
  error: string | null;
}

export async function finishRun(tx: Db, id: number, figures: RunFigures): Promise<AssignmentRun> {
  const [row] = await tx
    .update(assignmentRuns)
    .set({ ...figures, finishedAt: sql`clock_timestamp()` })
    .where(eq(assignmentRuns.id, id))
    .returning();
  return toAssignmentRun(row);
}

/** A run that failed before it could be recorded with its work (its transaction rolled back). */
export async function insertFailedRun(
  db: Db,
  run: Omit<RunStart, 'scheduleKey'>,
  figures: RunFigures,
): Promise<AssignmentRun> {
  const [row] = await db
    .insert(assignmentRuns)
    .values({ ...run, ...figures, finishedAt: sql`clock_timestamp()` })
    .returning();
  return toAssignmentRun(row);
}

export function toAssignmentRun(row: typeof assignmentRuns.$inferSelect): AssignmentRun {
  return {
    id: row.id,
    trigger: row.trigger,
    businessDate: row.businessDate,
    eligibleAgents: row.eligibleAgents,
    candidateLeads: row.candidateLeads,
    assigned: row.assigned,
    durationMs: row.durationMs,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
  };
}

/** The most recent runs, newest first. */
export async function listRuns(db: Db, limit: number): Promise<AssignmentRun[]> {
  const rows = await db.select().from(assignmentRuns).orderBy(desc(assignmentRuns.id)).limit(limit);
  return rows.map(toAssignmentRun);
}
