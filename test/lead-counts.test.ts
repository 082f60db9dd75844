import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../src/server/db/client';
import { insertPackage } from './support/agent-fixtures';
import { type Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

/**
 * The figures the triggers keep (lead_counts, agent_lead_counts, assignment_counts, the search
 * documents) against a fresh count of the tables they summarize, after every kind of write.
 */
const ctx = setupTestApp({ ASSIGN_ON_IMPORT: true });

type Row = Record<string, unknown>;
const sorted = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort();

async function expectCountersExact(db: Db): Promise<void> {
  const kept = await queryRows<Row>(
    db,
    sql`select category::text, status::text, has_agent as "hasAgent", sum(n)::int as n
        from lead_counts group by 1, 2, 3 having sum(n) <> 0`,
  );
  const fresh = await queryRows<Row>(
    db,
    sql`select category::text, status::text, agent_id is not null as "hasAgent", count(*)::int as n
        from leads group by 1, 2, 3`,
  );
  expect(sorted(kept)).toEqual(sorted(fresh));

  const keptAgents = await queryRows<Row>(
    db,
    sql`select agent_id as "agentId", status::text, sum(n)::int as n
        from agent_lead_counts group by 1, 2 having sum(n) <> 0`,
  );
  const freshAgents = await queryRows<Row>(
    db,
    sql`select agent_id as "agentId", status::text, count(*)::int as n
        from leads where agent_id is not null group by 1, 2`,
  );
  expect(sorted(keptAgents)).toEqual(sorted(freshAgents));

  const keptSlots = await queryRows<Row>(
    db,
    sql`select slot, sum(n)::int as n from assignment_counts group by 1 having sum(n) <> 0`,
  );
  const freshSlots = await queryRows<Row>(
    db,
    sql`select lead_history_slot(created_at) as slot, count(*)::int as n from lead_history
        where kind in ('AUTO_ASSIGNED', 'MANUAL_ASSIGNED') group by 1`,
  );
  expect(sorted(keptSlots)).toEqual(sorted(freshSlots));

  // every lead is searchable: indexed, or in a range the indexer has yet to reach
  const [{ missing, stale }] = await queryRows<{ missing: number; stale: number }>(
    db,
    sql`select
          (select count(*)::int from leads l
            where not exists (select 1 from lead_search s where s.lead_id = l.id)
              and not exists (select 1 from lead_search_queue q
                               where l.id between q.first_id and q.last_id)) as missing,
          (select count(*)::int from lead_search s left join leads l on l.id = s.lead_id
            where l.id is null
               or s.doc <> lead_search_doc(l.first_name, l.last_name, l.phone, l.email)) as stale`,
  );
  expect({ missing, stale }).toEqual({ missing: 0, stale: 0 });
}

async function expectApiFigures(admin: Client, db: Db): Promise<void> {
  const [fresh] = await queryRows<{
    total: number;
    unassigned: number;
    assigned: number;
    converted: number;
  }>(
    db,
    sql`select count(*)::int as total,
               (count(*) filter (where status = 'NEW' and agent_id is null))::int as unassigned,
               (count(*) filter (where agent_id is not null))::int as assigned,
               (count(*) filter (where status = 'CONVERTED'))::int as converted
        from leads`,
  );
  const stats = (await admin.get('/api/admin/stats')).json();
  expect(stats).toMatchObject({ totalLeads: fresh.total, unassignedLeads: fresh.unassigned });
  const analytics = (await admin.get('/api/admin/analytics')).json();
  expect(analytics).toMatchObject({
    totalLeads: fresh.total,
    assignedLeads: fresh.assigned,
    convertedLeads: fresh.converted,
  });
  const page = await admin.get('/api/admin/leads?limit=1');
  expect(page.headers['x-total-count']).toBe(String(fresh.total));
  const converted = await admin.get('/api/admin/leads?limit=1&status=CONVERTED');
  expect(converted.headers['x-total-count']).toBe(String(fresh.converted));
}

/** The database's message for a statement that fails (Drizzle wraps it). */
async function failure(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return 'no error';
  } catch (e) {
    const err = e as { message: string; cause?: { message?: string } };
    return `${err.message} ${err.cause?.message ?? ''}`;
  }
}

function upload(client: Client, csv: string) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'leads.csv');
  return client.request('POST', '/api/admin/leads/import', form);
}

describe('kept counts', () => {
  it('stay exact through imports, engine runs, manual assigns, status changes, deletes', async () => {
    const db = ctx.database.db;
    const admin = await loginAdmin(ctx);
    const pkg = await insertPackage(db, { category: 'MEDICARE', leadsPerDay: 40 });
    const ann = await registerAgent(ctx.app, 'Ann Counter');
    const bob = await registerAgent(ctx.app, 'Bob Counter');
    for (const agent of [ann, bob]) {
      const res = await agent.client.post('/api/agent/subscription', { packageId: pkg.id });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    await expectCountersExact(db);

    // an import large enough to queue its search range; the engine runs after it
    const t = `cnt${process.pid}${Date.now().toString(36)}`;
    const categories = ['MEDICARE', 'ACA', 'FINAL_EXPENSE'];
    const csv = (from: number, to: number) =>
      `firstName,lastName,city,state,age,category,externalId,email\n${Array.from(
        { length: to - from },
        (_, k) =>
          `${t}-${from + k},Doe,Austin,TX,70,${categories[(from + k) % 3]},${t}-${from + k},${t}-${from + k}@example.com`,
      ).join('\n')}\n`;
    const first = await upload(admin.client, csv(0, 2500));
    expect(first.json()).toMatchObject({ imported: 2500 });
    expect(first.json().assigned).toBe(80); // two agents, 40 a day each
    await expectCountersExact(db);
    await expectApiFigures(admin.client, db);

    // a repeated file (the staging path), with a few new rows
    const again = await upload(admin.client, csv(2400, 2600));
    expect(again.json()).toMatchObject({ imported: 100, duplicates: 100 });
    await expectCountersExact(db);

    // manual assignments and the agents' status changes
    const [free1, free2] = await queryRows<{ id: number }>(
      db,
      sql`select id from leads where status = 'NEW' and category = 'ACA' order by id limit 2`,
    );
    for (const [lead, agent] of [
      [free1, ann],
      [free2, bob],
    ] as const) {
      const res = await admin.client.post('/api/admin/leads/assign', {
        leadId: lead.id,
        userId: agent.id,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const mine = (await ann.client.get('/api/agent/leads')).json() as { id: number }[];
    for (const [i, status] of ['CONTACTED', 'CONVERTED', 'CONVERTED', 'INVALID'].entries()) {
      const res = await ann.client.post(`/api/agent/leads/${mine[i].id}/status`, { status });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expectCountersExact(db);
    await expectApiFigures(admin.client, db);
    const board = (await admin.client.get('/api/admin/agents')).json() as {
      id: number;
      totalLeads: number;
      convertedLeads: number;
      todayQuota: { assigned: number };
    }[];
    expect(board.find((a) => a.id === ann.id)).toMatchObject({
      totalLeads: 41,
      convertedLeads: 2,
      todayQuota: { assigned: 41 },
    });
    const analytics = (await admin.client.get('/api/admin/analytics')).json();
    expect(analytics.conversionsByAgent).toEqual([{ name: 'Ann Counter', converted: 2 }]);
    expect(analytics.assignmentsOverTime.at(-1).count).toBe(82);

    // deletes (the history goes with the leads), direct updates, and one more engine run
    await db.execute(sql`delete from leads where id in (${free1.id}, ${mine[1].id})`);
    await db.execute(
      sql`update leads set status = 'INVALID' where id in (select id from leads where status = 'NEW' order by id limit 7)`,
    );
    await db.execute(sql`update leads set first_name = 'Renamed' where id = ${mine[0].id}`);
    await expectCountersExact(db);
    const run = await admin.client.post('/api/admin/assignment/run');
    expect(run.statusCode, run.body).toBe(200);
    await expectCountersExact(db);
    await expectApiFigures(admin.client, db);

    // folding the delta rows changes no figure
    await db.execute(sql`select compact_lead_counts()`);
    const [{ rows }] = await queryRows<{ rows: number }>(
      db,
      sql`select count(*)::int as rows from lead_counts`,
    );
    const [{ keys }] = await queryRows<{ keys: number }>(
      db,
      sql`select count(*)::int as keys from (select distinct category, status, agent_id is not null from leads) k`,
    );
    expect(rows).toBe(keys);
    await expectCountersExact(db);

    // the search index catches up with the queued ranges (the app's indexer may hold some)
    for (let i = 0; i < 600; i++) {
      await db.execute(sql`select lead_search_catch_up(1000000)`);
      const [{ queued }] = await queryRows<{ queued: number }>(
        db,
        sql`select count(*)::int as queued from lead_search_queue`,
      );
      if (queued === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [{ indexed, leads }] = await queryRows<{ indexed: number; leads: number }>(
      db,
      sql`select (select count(*)::int from lead_search) as indexed,
                 (select count(*)::int from leads) as leads`,
    );
    expect(indexed).toBe(leads);
    await expectCountersExact(db);
  });

  it('refuses a lead whose agent is not a user, and unassigns the leads of a deleted user', async () => {
    const db = ctx.database.db;
    expect(
      await failure(
        db.execute(
          sql`insert into leads (city, state, age, category, status, agent_id)
              values ('Austin', 'TX', 70, 'MEDICARE', 'ASSIGNED', 2000000000)`,
        ),
      ),
    ).toMatch(/not a user/);
    const agent = await registerAgent(ctx.app, 'Leaving Agent');
    const [lead] = await queryRows<{ id: number }>(
      db,
      sql`insert into leads (city, state, age, category, status, agent_id)
          values ('Austin', 'TX', 70, 'MEDICARE', 'ASSIGNED', ${agent.id}) returning id`,
    );
    expect(
      await failure(db.execute(sql`update leads set agent_id = 2000000000 where id = ${lead.id}`)),
    ).toMatch(/not a user/);
    await db.execute(sql`delete from users where id = ${agent.id}`);
    const [after] = await queryRows<{ agent_id: number | null }>(
      db,
      sql`select agent_id from leads where id = ${lead.id}`,
    );
    expect(after.agent_id).toBeNull();
    await expectCountersExact(db);
  });
});
