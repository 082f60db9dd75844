import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leads } from '../src/server/db/schema';
import { RECENT_SEARCH_WINDOW, toLead } from '../src/server/modules/leads/lead-search.repository';
import { type Lead, leadSchema } from '../src/shared/contracts/leads';
import { insertLeads } from './support/admin-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

let seq = 0;
/** A unique token for this file's rows, so searches only see what a test created. */
function tag(prefix = 't'): string {
  return `${prefix}${process.pid}x${Date.now().toString(36)}x${++seq}`;
}

describe('GET /api/admin/leads', () => {
  it('pages newest first with the total in X-Total-Count', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('page');
    const created = [];
    for (let i = 0; i < 5; i++) {
      const [row] = await insertLeads(ctx, [
        { firstName: `${t}-${i}`, createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)) },
      ]);
      created.push(row);
    }
    const first = await admin.client.get(`/api/admin/leads?q=${t}&limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-total-count']).toBe('5');
    expect(first.json().map((l: { firstName: string }) => l.firstName)).toEqual([
      `${t}-4`,
      `${t}-3`,
    ]);
    const last = await admin.client.get(`/api/admin/leads?q=${t}&limit=2&offset=4`);
    expect(last.json().map((l: { id: number }) => l.id)).toEqual([created[0].id]);
    expect(last.headers['x-total-count']).toBe('5');
    expect(last.json()[0]).toMatchObject({
      city: 'Austin',
      state: 'TX',
      age: 65,
      category: 'MEDICARE',
      status: 'NEW',
      agentId: null,
      assignedAt: null,
      createdAt: '2030-01-01T00:00:00.000Z',
    });
  });

  it('answers, on every list path, exactly the Lead contract that a single lead answer has', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app, 'Json Agent');
    const t = tag('json');
    const [bare, full] = await insertLeads(ctx, [
      { firstName: t },
      {
        firstName: t,
        lastName: 'O"Brien \\ \u00e9\u4e2d',
        phone: '555-0199',
        email: `${t}@example.com`,
        city: 'San Antonio',
        state: 'TX',
        age: 81,
        category: 'ACA',
        externalId: `${t}-ext`,
      },
    ]);
    // a timestamp with microseconds: the answer keeps milliseconds, as JavaScript dates do
    await ctx.database.db
      .update(leads)
      .set({ createdAt: sql`'2031-02-03 04:05:06.789999+00'` })
      .where(eq(leads.id, full.id));
    const assigned = await admin.client.post('/api/admin/leads/assign', {
      leadId: full.id,
      userId: agent.id,
    });
    expect(assigned.statusCode).toBe(200);
    const rows = await ctx.database.db.select().from(leads).where(eq(leads.firstName, t));
    const expected = new Map(rows.map((r) => [r.id, toLead(r)]));
    expect(expected.get(full.id)).toEqual(assigned.json());
    expect(expected.get(full.id)?.createdAt).toBe('2031-02-03T04:05:06.789Z');

    const pages = [
      await admin.client.get(`/api/admin/leads?q=${t}`),
      await admin.client.get(`/api/admin/leads?q=${t}&status=ASSIGNED`),
      await admin.client.get(`/api/admin/leads?limit=1000`),
      await agent.client.get('/api/agent/leads'),
      await agent.client.get('/api/agent/leads?limit=10'),
    ];
    for (const page of pages) {
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('application/json; charset=utf-8');
      const mine = (page.json() as Lead[]).filter((l) => expected.has(l.id));
      expect(mine.length).toBeGreaterThan(0);
      for (const lead of mine) {
        expect(Object.keys(lead)).toEqual(Object.keys(leadSchema.shape));
        // the lists also say whether a return waits for a decision
        expect(lead).toEqual({ ...expected.get(lead.id), returnPending: false, onDnc: false });
      }
    }
    expect((pages[0].json() as Lead[]).map((l) => l.id)).toEqual([full.id, bare.id]);
  });

  it('defaults to 50 per page and refuses a limit over 1000', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('many');
    await insertLeads(
      ctx,
      Array.from({ length: 60 }, (_, i) => ({ lastName: `${t}`, phone: `555-${i}` })),
    );
    const res = await admin.client.get(`/api/admin/leads?q=${t}`);
    expect(res.json()).toHaveLength(50);
    expect(res.headers['x-total-count']).toBe('60');
    expect((await admin.client.get('/api/admin/leads?limit=1001')).statusCode).toBe(400);
    expect((await admin.client.get('/api/admin/leads?offset=-1')).statusCode).toBe(400);
  });

  it('searches first name, last name, phone and email, case-insensitively, and filters by status', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('srch');
    const [a, b, c, d, e] = await insertLeads(ctx, [
      { firstName: `Ann${t}`, status: 'NEW' },
      { lastName: `Lee${t}`, status: 'CONTACTED' },
      { phone: `+1 ${t} 555`, status: 'NEW' },
      { email: `mail.${t}@example.com`, status: 'CONVERTED' },
      { city: `City${t}`, status: 'NEW' }, // city is not searched
    ]);
    const ids = async (url: string) =>
      (await admin.client.get(url))
        .json()
        .map((l: { id: number }) => l.id)
        .sort();
    expect(await ids(`/api/admin/leads?q=${t.toUpperCase()}`)).toEqual(
      [a.id, b.id, c.id, d.id].sort(),
    );
    expect(await ids(`/api/admin/leads?q=ann${t}`)).toEqual([a.id]);
    expect(await ids(`/api/admin/leads?q=${t}&status=NEW`)).toEqual([a.id, c.id].sort());
    expect(await ids(`/api/admin/leads?q=${t}&status=CONVERTED`)).toEqual([d.id]);
    expect(e.id).toBeGreaterThan(0);
    // LIKE wildcards typed by the admin match literally
    expect(await ids(`/api/admin/leads?q=${t.slice(0, 4)}%25${t.slice(5)}`)).toEqual([]);
    expect(await ids(`/api/admin/leads?q=_${t}`)).toEqual([]);
  });

  it('finds a lead by its full name, first and last in either order (issue: "Karen Brown")', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('full');
    const [karen, other, reversed] = await insertLeads(ctx, [
      { firstName: `Karen${t}`, lastName: `Brown${t}` },
      { firstName: `Karen${t}`, lastName: `Smith${t}` },
      { firstName: `Brown${t}`, lastName: `Karen${t}` },
    ]);
    const ids = async (q: string) =>
      (await admin.client.get(`/api/admin/leads?q=${encodeURIComponent(q)}`))
        .json()
        .map((l: { id: number }) => l.id)
        .sort();
    expect(await ids(`Karen${t} Brown${t}`)).toEqual([karen.id, reversed.id].sort());
    expect(await ids(`brown${t}   KAREN${t}`)).toEqual([karen.id, reversed.id].sort());
    expect(await ids(`Karen${t} Smith${t}`)).toEqual([other.id]);
    expect(await ids(`Karen${t} Nobody${t}`)).toEqual([]);
    // with the search index still catching up (a large import's queued ids), the same answer
    await ctx.database.db.execute(
      sql`insert into lead_search_queue (first_id, last_id) values (${karen.id}, ${reversed.id})`,
    );
    await ctx.database.db.execute(
      sql`delete from lead_search where lead_id between ${karen.id} and ${reversed.id}`,
    );
    expect(await ids(`Karen${t} Brown${t}`)).toEqual([karen.id, reversed.id].sort());
    // the index caught up again (the queue empty), as the other tests expect
    await ctx.database.db.execute(sql`select lead_search_catch_up(1000)`);
    expect(await ids(`Karen${t} Brown${t}`)).toEqual([karen.id, reversed.id].sort());
  });

  it('finds a common word among the newest leads and a rare one anywhere, paging through both', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('win');
    // more leads than the window of newest search documents; every 10th holds the common word
    const n = RECENT_SEARCH_WINDOW + 1_000;
    const created: number[] = [];
    for (let from = 0; from < n; from += 1_000) {
      const rows = await insertLeads(
        ctx,
        Array.from({ length: Math.min(1_000, n - from) }, (_, k) => {
          const i = from + k;
          return {
            firstName: i % 10 === 0 ? `common${t}` : `other${t}`,
            lastName: i === 3 ? `rare${t}` : null,
          };
        }),
      );
      created.push(...rows.map((r) => r.id));
    }
    const common = created.filter((_, i) => i % 10 === 0).sort((x, y) => y - x);
    const page = async (q: string, extra: string) => {
      const res = await admin.client.get(`/api/admin/leads?q=${q}${extra}`);
      expect(res.statusCode, res.body).toBe(200);
      return {
        ids: res.json().map((l: { id: number }) => l.id),
        total: Number(res.headers['x-total-count']),
        exact: res.headers['x-total-count-exact'] !== 'false',
      };
    };
    const first = await page(`common${t}`, '&limit=50');
    expect(first.ids).toEqual(common.slice(0, 50));
    // found among the newest: at least that many, more may follow
    expect(first.exact).toBe(false);
    expect(first.total).toBeGreaterThan(50);
    expect(first.total).toBeLessThanOrEqual(common.length);
    // past what the newest hold: the index answers, with the exact total
    const last = await page(`common${t}`, `&limit=50&offset=${common.length - 20}`);
    expect(last).toEqual({ ids: common.slice(-20), total: common.length, exact: true });
    // a rare word among the oldest is found too
    expect(await page(`rare${t}`, '')).toEqual({ ids: [created[3]], total: 1, exact: true });
    expect(await page(`rare${t}`, '&status=CONTACTED')).toEqual({ ids: [], total: 0, exact: true });
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/leads')).statusCode).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/leads')).statusCode).toBe(401);
  });
});
