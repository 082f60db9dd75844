import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { businessDate } from '../src/server/lib/business-time';
import { recordAttempts } from '../src/server/modules/delivery/deliveries.repository';
import { createAgent } from './support/assignment-fixtures';
import { newSourceKey, postIntakeLead } from './support/intake-post';
import { type Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';
import { TEST_DB } from './support/test-db';

/**
 * The plans PostgreSQL chooses for the statements the app really sends (recorded from the pool
 * while each API call runs), over enough leads that a wrong plan would show: each read uses the
 * index meant for it, and none reads the leads table (or the search table) from end to end.
 */
const LEADS = 60_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

interface Recorded {
  text: string;
  values: unknown[];
  name?: string;
}

/**
 * Records every statement the app sends through the pool, on its own or on a connection it
 * takes for a transaction, into the array it answers.
 */
function recordStatements(pool: pg.Pool): Recorded[] {
  const recorded: Recorded[] = [];
  type Query = (...args: unknown[]) => unknown;
  const record = (target: { query: Query }) => {
    const query = target.query.bind(target);
    target.query = (...args) => {
      const [config, values] = args as [string | pg.QueryConfig, unknown[] | undefined];
      if (typeof config === 'string') recorded.push({ text: config, values: values ?? [] });
      else
        recorded.push({
          text: config.text,
          values: config.values ?? values ?? [],
          name: config.name,
        });
      return query(...args);
    };
  };
  record(pool as unknown as { query: Query });
  const recording = new WeakSet<object>();
  // pg's own pool.query takes its connection with a callback: that form is left as it is
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      if (!recording.has(client)) {
        recording.add(client);
        record(client as unknown as { query: Query });
      }
      return client;
    });
  };
  return recorded;
}

/** The plans of the recorded statements that read a leads-size table. */
async function plansOfRecorded(pool: pg.Pool, recorded: Recorded[]): Promise<PlanNode[][]> {
  const statements = recorded.filter((q) =>
    /\b(leads|lead_search|lead_history|lead_counts|agent_lead_counts|assignment_counts|deliveries)\b/.test(
      q.text,
    ),
  );
  expect(statements.length).toBeGreaterThan(0);
  const plans: PlanNode[][] = [];
  for (const q of statements) {
    if (q.name) {
      plans.push(await genericPlanOf(pool, q.text, q.values));
      continue;
    }
    const res = await pool.query(`explain (format json) ${inline(q.text, q.values)}`);
    plans.push(walk((res.rows[0]['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan));
  }
  return plans;
}

/**
 * A named (prepared) statement runs the plan made for any parameters (the pool's connections
 * force generic plans): that plan, not one made for these values, is the one to check.
 */
async function genericPlanOf(pool: pg.Pool, text: string, values: unknown[]): Promise<PlanNode[]> {
  const client = await pool.connect();
  try {
    await client.query(`prepare plan_probe as ${text}`);
    const args = values.length ? `(${values.map((_, i) => `$${i + 1}`).join(', ')})` : '';
    const res = await client.query(
      `explain (format json) ${inline(`execute plan_probe${args}`, values)}`,
    );
    return walk((res.rows[0]['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan);
  } finally {
    await client.query('deallocate plan_probe').catch(() => undefined);
    client.release();
  }
}

/** Parameters written into the text (EXPLAIN of a raw statement cannot bind them here). */
function inline(text: string, values: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n) => {
    const v = values[Number(n) - 1];
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'number') return String(v);
    return `'${String(v instanceof Date ? v.toISOString() : v).replace(/'/g, "''")}'`;
  });
}

const indexesOf = (plans: PlanNode[][]) =>
  new Set(plans.flat().flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])));
const seqScansOf = (plans: PlanNode[][]) =>
  plans
    .flat()
    .filter((n) => n['Node Type'] === 'Seq Scan')
    .map((n) => n['Relation Name']);

describe.runIf(TEST_DB === 'postgres')('query plans over many leads', () => {
  const ctx = setupTestApp();
  let admin: Client;
  let agent: Client;
  let recorded: Recorded[] = [];

  beforeAll(async () => {
    const db = ctx.database.db;
    const adminLogin = await loginAdmin(ctx);
    admin = adminLogin.client;
    const main = await registerAgent(ctx.app, 'Plan Agent');
    agent = main.client;
    const others = [];
    for (let i = 0; i < 20; i++) others.push((await registerAgent(ctx.app, `Other ${i}`)).id);
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    // 1,000 leads of the agent, 55% of the rest with other agents (statuses mixed, INVALID
    // rare), the rest NEW
    await db.execute(sql`
      insert into leads (external_id, first_name, last_name, phone, email, city, state, age,
                         category, status, agent_id, assigned_at, assigned_on, created_at)
      select 'P' || g, 'First' || (g % 997), 'Last' || (g % 1009),
             '555-' || lpad((g % 10000)::text, 4, '0'), 'lead' || g || '@example.com',
             'Austin', 'TX', 18 + g % 80,
             (array['MEDICARE', 'ACA', 'FINAL_EXPENSE'])[1 + g % 3]::lead_category,
             case when a.agent is null then 'NEW'
                  when g % 1000 = 7 then 'INVALID'
                  else (array['ASSIGNED', 'CONTACTED', 'IN_PROGRESS', 'CONVERTED'])[1 + g % 4]
             end::lead_status,
             a.agent,
             case when a.agent is null then null
                  else now() - (g % 30) * interval '1 day' - (g % 96) * interval '15 minutes' end,
             case when a.agent is null then null else ${today}::date - (g % 30) end,
             now() - (${LEADS} - g) * interval '1 minute'
      from generate_series(1, ${LEADS}) g
      cross join lateral (
        select case when g % 60 = 0 then ${main.id}
                    when g % 100 < 55 then (${`{${others.join(',')}}`}::int[])[1 + g % 20]
               end as agent
      ) a`);
    await db.execute(sql`
      insert into lead_history (lead_id, kind, to_status, agent_id, created_at)
      select id, 'AUTO_ASSIGNED', 'ASSIGNED', agent_id, assigned_at from leads
      where agent_id is not null`);
    // returns asked for one lead in 50 of those given (the lists show a pending one)
    await db.execute(sql`
      insert into lead_returns (lead_id, agent_id, reason, status)
      select id, agent_id, 'WRONG_NUMBER',
             (array['PENDING', 'APPROVED', 'DENIED'])[1 + id % 3]::return_status
        from leads where agent_id is not null and id % 50 = 3`);
    // a do-not-call list of a real size (the lists flag each lead whose phone is on it)
    await db.execute(sql`
      insert into dnc_numbers (phone)
      select '+1202' || lpad(g::text, 7, '0') from generate_series(1, 20000) g`);
    await db.execute(sql`select lead_search_catch_up(${LEADS})`);
    // statistics from every row, not a random sample, so the plans are the same on every run
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local default_statistics_target = 1000`);
      await tx.execute(sql`analyze`);
    });

    recorded = recordStatements(ctx.database.pool as pg.Pool);
  }, 600_000);

  /** The plan nodes of every statement the call sent that reads a leads-size table. */
  async function plansOf(client: Client, url: string): Promise<PlanNode[][]> {
    recorded.length = 0;
    const res = await client.get(url);
    expect(res.statusCode, res.body).toBe(200);
    return plansOfRecorded(ctx.database.pool as pg.Pool, recorded);
  }

  it('admin leads list: the primary key, newest first, and the kept count', async () => {
    const plans = await plansOf(admin, '/api/admin/leads?limit=50');
    expect(indexesOf(plans)).toContain('leads_pkey');
    expect(seqScansOf(plans)).not.toContain('leads');
    const deep = await plansOf(admin, '/api/admin/leads?limit=50&offset=5000');
    expect(indexesOf(deep)).toContain('leads_pkey');
  });

  it('admin leads by status: leads_status_idx for a rare status, never a pass over leads', async () => {
    const rare = await plansOf(admin, '/api/admin/leads?limit=50&status=INVALID');
    expect(indexesOf(rare)).toContain('leads_status_idx');
    for (const status of ['NEW', 'CONVERTED']) {
      // a common status may as well walk the primary key and stop at 50
      const plans = await plansOf(admin, `/api/admin/leads?limit=50&status=${status}`);
      expect(seqScansOf(plans)).not.toContain('leads');
      expect(indexesOf(plans).size).toBeGreaterThan(0);
    }
  });

  it('admin search: the trigram index of lead_search, never a pass over leads', async () => {
    const rare = await plansOf(admin, '/api/admin/leads?q=lead4242%40');
    expect(indexesOf(rare)).toContain('lead_search_doc_trgm');
    expect(seqScansOf(rare)).toEqual([]);
    const withStatus = await plansOf(admin, '/api/admin/leads?q=lead4242%40&status=NEW');
    expect(indexesOf(withStatus)).toContain('lead_search_doc_trgm');
    expect(seqScansOf(withStatus)).not.toContain('leads');
    // a common word: the page walks lead_search newest first and stops at its window
    const common = await plansOf(admin, '/api/admin/leads?q=last1');
    expect(seqScansOf(common)).not.toContain('leads');
    expect(indexesOf(common)).toContain('lead_search_pkey');
    expect(indexesOf(common)).not.toContain('lead_search_doc_trgm');
  });

  it("the agent's leads: each order read as it is from its index, no sort", async () => {
    const sorts = (plans: PlanNode[][]) =>
      plans
        .flat()
        .filter((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort');
    const orders = [
      ['', 'leads_agent_uncontacted_idx'],
      ['&sort=newest', 'leads_agent_received_idx'],
      ['&sort=oldest', 'leads_agent_received_idx'],
      ['&status=CONTACTED', 'leads_agent_uncontacted_idx'],
    ];
    for (const [query, index] of orders) {
      const plans = await plansOf(agent, `/api/agent/leads?limit=50&offset=50${query}`);
      expect(indexesOf(plans), query).toContain(index);
      expect(sorts(plans), query).toEqual([]);
      // the "Return pending" badge: the pending returns' index, never every return
      expect(seqScansOf(plans)).not.toContain('leads');
      expect(seqScansOf(plans)).not.toContain('lead_returns');
    }
    // the spec's call, every lead at once
    expect(seqScansOf(await plansOf(agent, '/api/agent/leads'))).not.toContain('leads');
  });

  it('stats and analytics read the kept counts, not the leads or their history', async () => {
    for (const url of ['/api/admin/stats', '/api/admin/analytics']) {
      const plans = await plansOf(admin, url);
      if (url.endsWith('analytics')) {
        // the chart's days: index-only sums of their slots
        expect(indexesOf(plans)).toContain('assignment_counts_slot_n_idx');
        expect(seqScansOf(plans)).not.toContain('assignment_counts');
      }
      const relations = plans
        .flat()
        .flatMap((n) => (n['Relation Name'] ? [n['Relation Name']] : []));
      expect(relations).not.toContain('leads');
      expect(relations).not.toContain('lead_history');
    }
  });

  it("sources page: each source's leads counted by leads_source_idx, never a pass over leads", async () => {
    // every lead here came without a source, as a portal fed by CSV files mostly is
    const res = await admin.post('/api/admin/sources', {
      name: 'Plan Source',
      costPerLeadCents: 900,
    });
    expect(res.statusCode, res.body).toBe(201);
    const plans = await plansOf(admin, '/api/admin/sources');
    expect(indexesOf(plans)).toContain('leads_source_idx');
    expect(seqScansOf(plans)).not.toContain('leads');
  });

  it("agents page: today's assignments from leads_assigned_day_idx", async () => {
    const plans = await plansOf(admin, '/api/admin/agents');
    expect(indexesOf(plans)).toContain('leads_assigned_day_idx');
    expect(seqScansOf(plans)).not.toContain('leads');
  });
});

describe.runIf(TEST_DB === 'postgres')(
  'query plans of the intake over a pool of unassigned leads',
  () => {
    const ctx = setupTestApp();
    let key: string;
    let agent: number;

    beforeAll(async () => {
      const db = ctx.database.db;
      // a portal's first day: many stored leads and the statistics say none is assigned yet
      await db.execute(sql`
      insert into leads (external_id, city, state, age, category, created_at)
      select 'U' || g, 'Dallas', 'TX', 40 + g % 40, 'MEDICARE', now() - g * interval '1 minute'
      from generate_series(1, ${LEADS}) g`);
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local default_statistics_target = 1000`);
        await tx.execute(sql`analyze`);
      });
      agent = await createAgent(db, { quota: 500, states: ['TX'] });
      ({ key } = await newSourceKey(ctx));
    }, 600_000);

    it("a lead's handlers read it by the primary key, never a whole index of assigned leads", async () => {
      const recorded = recordStatements(ctx.database.pool as pg.Pool);
      // the day's leads come one by one; each one's statements are the same prepared texts
      for (let i = 0; i < 3; i++) {
        const res = await postIntakeLead(ctx, key);
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({ status: 'ASSIGNED' });
      }
      const [given] = await queryRows<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from leads where agent_id = ${agent}`,
      );
      expect(given.n).toBe(3);
      const plans = await plansOfRecorded(ctx.database.pool as pg.Pool, recorded);
      // each index read of leads narrows to a lead, an agent, an agency, a phone or an email: one
      // with no condition, or a status alone, reads more with every lead the day gives out
      const narrow = /\b(id|agent_id|agency_id|phone|email|external_id)\b/;
      const whole = plans
        .flat()
        .filter(
          (n) =>
            n['Relation Name'] === 'leads' &&
            n['Index Name'] &&
            !narrow.test(n['Index Cond'] ?? ''),
        )
        .map((n) => `${n['Index Name']} ${n['Index Cond'] ?? ''}`);
      expect(whole).toEqual([]);
      expect(seqScansOf(plans)).not.toContain('leads');
    });

    it("a delivery's attempt is written by the primary key, never a pass over the deliveries", async () => {
      // a portal's deliveries of many days: a webhook each for 20,000 leads
      await ctx.database.db.execute(sql`
      insert into deliveries (lead_id, agent_id, channel, status, attempts)
      select id, ${agent}, 'WEBHOOK', 'SENT', 1 from leads order by id limit 20000`);
      await ctx.database.db.execute(sql`analyze deliveries`);
      const [one] = await queryRows<{ id: number }>(
        ctx.database.db,
        sql`select id::int as id from deliveries order by id limit 1`,
      );
      const recorded = recordStatements(ctx.database.pool as pg.Pool);
      const written = await recordAttempts(ctx.database.db, [
        {
          id: one.id,
          status: 'SENT',
          attemptStatus: 'SENT',
          responseCode: 200,
          latencyMs: 12,
          error: null,
          messageId: null,
          nextAttemptAt: null,
        },
      ]);
      expect([...written]).toEqual([one.id]);
      const plans = await plansOfRecorded(ctx.database.pool as pg.Pool, recorded);
      expect(seqScansOf(plans)).not.toContain('deliveries');
      expect(indexesOf(plans)).toContain('deliveries_pkey');
    });

    it("jobs that start together claim in one statement narrowed to each job's ids, and end in one transaction; a delivery two jobs name goes to one", async () => {
      const db = ctx.database.db;
      const other = await createAgent(db, { quota: 500, states: ['TX'] });
      // waiting webhooks: three of the agent's, two of another's (beside the 20,000 sent ones)
      const waiting = await queryRows<{ id: number; agentId: number }>(
        db,
        sql`insert into deliveries (lead_id, agent_id, channel, next_attempt_at)
          select l.id, case when n <= 3 then ${agent}::bigint else ${other}::bigint end, 'WEBHOOK'::delivery_channel, now()
          from (select id, row_number() over (order by id desc) as n from leads
                order by id desc limit 5) l
          returning id::int as id, agent_id::int as "agentId"`,
      );
      const mine = waiting
        .filter((w) => w.agentId === agent)
        .map((w) => w.id)
        .sort((a, b) => a - b);
      const others = waiting
        .filter((w) => w.agentId === other)
        .map((w) => w.id)
        .sort((a, b) => a - b);
      const { batching } = ctx.app.leadPorts.delivery;
      const recorded = recordStatements(ctx.database.pool as pg.Pool);
      const [range, named, again] = await Promise.all([
        batching.claim(db, {
          v: 1,
          agentId: agent,
          channel: 'WEBHOOK',
          fromId: mine[0]!,
          toId: mine[2]!,
        }),
        batching.claim(db, { v: 1, agentId: other, channel: 'WEBHOOK', ids: others, attempts: 0 }),
        // a late job naming a delivery the one beside it names too
        batching.claim(db, {
          v: 1,
          agentId: other,
          channel: 'WEBHOOK',
          ids: [others[0]!],
          attempts: 0,
        }),
      ]);
      expect(range.claimed.map((c) => c.id)).toEqual(mine);
      expect(range.target).toMatchObject({ id: agent });
      expect(range.leads.size).toBe(3);
      expect([...named.claimed, ...again.claimed].map((c) => c.id).sort((a, b) => a - b)).toEqual(
        others,
      );
      const claims = recorded.filter((q) => /update deliveries d set attempts/.test(q.text));
      expect(claims).toHaveLength(1);
      const plans = await plansOfRecorded(ctx.database.pool as pg.Pool, claims);
      expect(seqScansOf(plans)).not.toContain('deliveries');
      // every read of the deliveries is narrowed to a job's ids: never every waiting delivery
      const reads = plans
        .flat()
        .filter((n) => n['Relation Name'] === 'deliveries' && n['Node Type'] !== 'ModifyTable');
      expect(reads.length).toBeGreaterThan(0);
      expect(
        reads
          .filter((n) => !/\bid (>=|=)/.test(n['Index Cond'] ?? ''))
          .map((n) => `${n['Node Type']} ${n['Index Cond'] ?? ''}`),
      ).toEqual([]);

      // their sends over at once: one transaction records them all
      recorded.length = 0;
      const sent = (c: { id: number; attempts: number }) => ({
        id: c.id,
        attempts: c.attempts,
        status: 'SENT' as const,
        attemptStatus: 'SENT' as const,
        responseCode: 200,
        latencyMs: 9,
        error: null,
        messageId: `msg_lf_${c.id}`,
        nextAttemptAt: null,
      });
      await Promise.all(
        [range, named, again].map((claim, i) =>
          batching.record(db, {
            job: {
              v: 1,
              agentId: i === 0 ? agent : other,
              channel: 'WEBHOOK',
              ids: [1],
              attempts: 0,
            },
            lane: 1,
            target: claim.target,
            settled: claim.claimed.map(sent),
            unattempted: [],
          }),
        ),
      );
      expect(recorded.filter((q) => /^\s*begin/i.test(q.text))).toHaveLength(1);
      const statuses = await queryRows<{ status: string }>(
        db,
        sql`select status from deliveries where id = any(${`{${[...mine, ...others].join(',')}}`}::bigint[])`,
      );
      expect(statuses.map((r) => r.status)).toEqual(Array(5).fill('SENT'));
    });
  },
);
