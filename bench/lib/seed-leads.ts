/**
 * Fills a migrated database with a year of leads, fast: COPY straight into `leads` (pg-copy-streams)
 * and set-based history rows, with the secondary indexes of both tables dropped during the load and
 * built again after it (constraints, triggers and foreign keys stay on). The caller runs VACUUM
 * ANALYZE (the steady state autovacuum reaches on its own) once the server is quiet.
 *
 * Shape: leads created evenly over the last 365 days (ids ascending with time, as imports give);
 * exactly `agentLeads` of them spread over the year belong to the bench agent; 55% of the others
 * belong to one of the other agents; the rest are NEW and unassigned. Assigned leads carry a status
 * mix (ASSIGNED 45%, CONTACTED 20%, IN_PROGRESS 12%, CONVERTED 15%, INVALID 8%); every lead has
 * an IMPORTED history row and every assigned one an AUTO_ASSIGNED row.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { LeadStatus } from '../../src/shared/domain';
import { DEFAULT_SEED, LeadGenerator } from './leads-data';

export interface SeedPlan {
  leads: number;
  agentId: number;
  agentLeads: number;
  otherAgentIds: number[];
  adminId: number;
  timeZone: string;
}

export interface SeedResult {
  copyMs: number;
  indexMs: number;
  historyMs: number;
  agentLeads: number;
  assigned: number;
  converted: number;
}

const DAY_MS = 86_400_000;

function statusOf(x: number): LeadStatus {
  if (x < 0.45) return 'ASSIGNED';
  if (x < 0.65) return 'CONTACTED';
  if (x < 0.77) return 'IN_PROGRESS';
  if (x < 0.92) return 'CONVERTED';
  return 'INVALID';
}

export async function seedLeads(url: string, plan: SeedPlan): Promise<SeedResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const gen = new LeadGenerator(DEFAULT_SEED + 1);
    const day = new Intl.DateTimeFormat('en-CA', {
      timeZone: plan.timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    const now = Date.now() - 60_000;
    const first = now - 365 * DAY_MS;
    const step = (now - 3_600_000 - first) / plan.leads;
    const agentLeads = Math.min(plan.agentLeads, plan.leads);
    const stride = Math.max(1, Math.floor(plan.leads / Math.max(1, agentLeads)));
    let given = 0;
    let assigned = 0;
    let converted = 0;

    function* rows(): Generator<string> {
      let chunk = '';
      for (let i = 0; i < plan.leads; i++) {
        const r = gen.next();
        const created = first + i * step + gen.rand() * step;
        let agent: number | null = null;
        if (given < agentLeads && i % stride === 0) {
          agent = plan.agentId;
          given++;
        } else if (plan.otherAgentIds.length > 0 && gen.rand() < 0.55) {
          agent = gen.pick(plan.otherAgentIds);
        }
        let status: LeadStatus = 'NEW';
        let assignedAt = '\\N';
        let assignedOn = '\\N';
        if (agent !== null) {
          status = statusOf(gen.rand());
          const at = new Date(Math.min(now, created + gen.rand() * 2 * DAY_MS));
          assignedAt = at.toISOString();
          assignedOn = day.format(at);
          assigned++;
          if (status === 'CONVERTED') converted++;
        }
        chunk += `${r.externalId}\t${r.firstName}\t${r.lastName}\t${r.phone}\t${r.email ?? '\\N'}\t${r.city}\t${r.state}\t${r.age}\t${r.category}\t${status}\t${agent ?? '\\N'}\t${assignedAt}\t${assignedOn}\t${new Date(created).toISOString()}\n`;
        if (chunk.length > 1 << 20) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }

    // Indexes that back no constraint: built once at the end instead of row by row.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes i
       where schemaname = 'public' and tablename in ('leads', 'lead_history')
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const index of indexes) await client.query(`drop index "${index.name}"`);

    let started = performance.now();
    await pipeline(
      Readable.from(rows()),
      client.query(
        copyFrom(
          'copy leads (external_id, first_name, last_name, phone, email, city, state, age, category, status, agent_id, assigned_at, assigned_on, created_at) from stdin',
        ),
      ),
    );
    const copyMs = Math.round(performance.now() - started);

    started = performance.now();
    await client.query(
      `insert into lead_history (lead_id, kind, actor_id, to_status, created_at)
       select id, 'IMPORTED', $1::int, 'NEW', created_at from leads order by id`,
      [plan.adminId],
    );
    await client.query(
      `insert into lead_history (lead_id, kind, agent_id, to_status, created_at)
       select id, 'AUTO_ASSIGNED', agent_id, 'ASSIGNED', assigned_at from leads
       where agent_id is not null order by assigned_at`,
    );
    const historyMs = Math.round(performance.now() - started);

    started = performance.now();
    for (const index of indexes) await client.query(index.def);
    const indexMs = Math.round(performance.now() - started);

    return { copyMs, indexMs, historyMs, agentLeads: given, assigned, converted };
  } finally {
    await client.end();
  }
}
