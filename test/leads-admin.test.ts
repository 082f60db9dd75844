import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { imports, leadHistory, leads } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
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

function upload(
  client: Client,
  csv: string | Uint8Array<ArrayBuffer>,
  filename = 'leads.csv',
  type = 'text/csv',
) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type }), filename);
  return client.request('POST', '/api/admin/leads/import', form);
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
        expect(lead).toEqual(expected.get(lead.id));
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

describe('POST /api/admin/leads/assign', () => {
  it('assigns a NEW lead, records the history with the admin, and refuses a second assignment with 409', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app, 'Assignee');
    const other = await registerAgent(ctx.app, 'Other');
    const [lead] = await insertLeads(ctx, [{ firstName: tag('asg') }]);

    const res = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: agent.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: lead.id, status: 'ASSIGNED', agentId: agent.id });
    const [row] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row.assignedOn).toBe(businessDate(ctx.app.config.BUSINESS_TZ));
    expect(row.assignedAt).toBeInstanceOf(Date);
    const history = await ctx.database.db
      .select()
      .from(leadHistory)
      .where(eq(leadHistory.leadId, lead.id));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      kind: 'MANUAL_ASSIGNED',
      actorId: admin.id,
      fromStatus: 'NEW',
      toStatus: 'ASSIGNED',
      agentId: agent.id,
    });

    const again = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: other.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/no longer available/);
    const [after] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(after.agentId).toBe(agent.id);
    expect(
      await ctx.database.db.select().from(leadHistory).where(eq(leadHistory.leadId, lead.id)),
    ).toHaveLength(1);
    // the agent now sees it in the admin list as ASSIGNED
    const listed = await admin.client.get(`/api/admin/leads?q=${lead.firstName}`);
    expect(listed.json()[0]).toMatchObject({ status: 'ASSIGNED', agentId: agent.id });
  });

  it('lets only one of two simultaneous assignments win', async () => {
    const admin = await loginAdmin(ctx);
    const a = await registerAgent(ctx.app);
    const b = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx, [{}]);
    const results = await Promise.all([
      admin.client.post('/api/admin/leads/assign', { leadId: lead.id, userId: a.id }),
      admin.client.post('/api/admin/leads/assign', { leadId: lead.id, userId: b.id }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const history = await ctx.database.db
      .select()
      .from(leadHistory)
      .where(and(eq(leadHistory.leadId, lead.id), eq(leadHistory.kind, 'MANUAL_ASSIGNED')));
    expect(history).toHaveLength(1);
  });

  it('lets the admin exceed a quota, refuses a non-NEW lead, a missing lead and a non-agent', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const [contacted, fresh] = await insertLeads(ctx, [{ status: 'CONTACTED' }, {}]);
    const res = (leadId: number, userId: number) =>
      admin.client.post('/api/admin/leads/assign', { leadId, userId });
    expect((await res(contacted.id, agent.id)).statusCode).toBe(409);
    expect((await res(999_999_999, agent.id)).statusCode).toBe(404);
    expect((await res(fresh.id, 999_999)).statusCode).toBe(404);
    const toAdmin = await res(fresh.id, admin.id);
    expect(toAdmin.statusCode).toBe(400);
    expect(toAdmin.json().message).toBe('Leads can only be assigned to agents');
    expect((await admin.client.post('/api/admin/leads/assign', { leadId: 'x' })).statusCode).toBe(
      400,
    );
    const [still] = await ctx.database.db.select().from(leads).where(eq(leads.id, fresh.id));
    expect(still.status).toBe('NEW');
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx, [{}]);
    const body = { leadId: lead.id, userId: agent.id };
    expect((await agent.client.post('/api/admin/leads/assign', body)).statusCode).toBe(403);
    expect((await new Client(ctx.app).post('/api/admin/leads/assign', body)).statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(row.agentId).toBeNull();
  });
});

describe('POST /api/admin/leads/import', () => {
  it('stores the good rows, reports each bad row with its line and reason, and records the import', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('imp');
    const csv = [
      'State,City,Age,Category,firstName,lastName,Phone,Email,externalId',
      `TX,Austin,65,MEDICARE,Ann,${t},555-0001,ann@example.com,${t}-1`,
      `california,"San Jose, CA",40,aca,Bob,${t},,,${t}-2`,
      `ZZ,Dallas,70,MEDICARE,Bad,${t},,,${t}-3`,
      `TX,Dallas,17,MEDICARE,Young,${t},,,${t}-4`,
      `FL,Miami,80,LIFE,Cat,${t},,,${t}-5`,
      '',
      `NY,Albany,55,final expense,Dee,${t},,,`,
    ].join('\r\n');
    const res = await upload(admin.client, `\uFEFF${csv}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 3, duplicates: 0, errorCount: 3 });
    // no agent of this file has a subscription, so whatever runs after the import assigns none
    expect([0, null]).toContain(body.assigned);
    expect(body.errors).toEqual([
      { line: 4, reason: "Invalid state: 'ZZ'" },
      { line: 5, reason: "Age must be an integer from 18 to 120: '17'" },
      { line: 6, reason: "Unknown category: 'LIFE'" },
    ]);
    const stored = (await admin.client.get(`/api/admin/leads?q=${t}`)).json();
    expect(stored.map((l: { firstName: string }) => l.firstName).sort()).toEqual([
      'Ann',
      'Bob',
      'Dee',
    ]);
    expect(stored.find((l: { firstName: string }) => l.firstName === 'Bob')).toMatchObject({
      state: 'CA',
      city: 'San Jose, CA',
      category: 'ACA',
      phone: null,
      status: 'NEW',
      externalId: `${t}-2`,
    });
    expect(stored.find((l: { firstName: string }) => l.firstName === 'Dee').category).toBe(
      'FINAL_EXPENSE',
    );

    const [record] = await ctx.database.db
      .select()
      .from(imports)
      .where(eq(imports.id, body.importId));
    expect(record).toMatchObject({
      status: 'DONE',
      filename: 'leads.csv',
      userId: admin.id,
      rowsSeen: 6,
      imported: 3,
      duplicates: 0,
      errorCount: 3,
    });
    expect(record.errors).toEqual(body.errors);
    // each lead carries its import (who and when are on the import record); an import writes
    // no history rows (docs/decisions/007-scale.md)
    const mine = await ctx.database.db
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.importId, body.importId));
    expect(mine).toHaveLength(3);
    const history = await ctx.database.db
      .select()
      .from(leadHistory)
      .innerJoin(leads, eq(leads.id, leadHistory.leadId))
      .where(eq(leads.importId, body.importId));
    expect(history).toHaveLength(0);
  });

  it('does not store a row twice when its externalId was imported before', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('dup');
    const header = 'state,city,age,category,externalId,firstName';
    const first = await upload(
      admin.client,
      `${header}\nTX,Austin,65,MEDICARE,${t}-a,${t}\nTX,Austin,66,MEDICARE,${t}-b,${t}\n`,
    );
    expect(first.json()).toMatchObject({ imported: 2, duplicates: 0, errorCount: 0 });
    const second = await upload(
      admin.client,
      `${header}\nTX,Austin,65,MEDICARE,${t}-b,${t}\nTX,Austin,67,MEDICARE,${t}-c,${t}\nTX,Austin,68,MEDICARE,,${t}\n`,
    );
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ imported: 2, duplicates: 1, errorCount: 0 });
    const listed = await admin.client.get(`/api/admin/leads?q=${t}`);
    expect(listed.headers['x-total-count']).toBe('4');
    expect(
      listed
        .json()
        .map((l: { age: number }) => l.age)
        .sort(),
    ).toEqual([65, 66, 67, 68]);
  });

  it('answers 413 over the size limit and 400/415 for what is not a CSV upload, storing nothing', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('bad');
    const before = (await admin.client.get('/api/admin/leads?limit=1')).headers['x-total-count'];

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const image = await upload(admin.client, png, 'photo.png', 'image/png');
    expect(image.statusCode).toBe(415);
    expect(image.json().message).toMatch(/Only \.csv files/);

    const renamed = await upload(admin.client, png, 'photo.csv', 'text/csv');
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toMatch(/binary data/);

    const noColumns = await upload(admin.client, `name,phone\n${t},555\n`);
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json().message).toMatch(
      /Missing required columns: state, city, age, category/,
    );

    const json = await admin.client.post('/api/admin/leads/import', { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/multipart\/form-data/);

    const empty = await admin.client.request('POST', '/api/admin/leads/import', new FormData());
    expect(empty.statusCode).toBe(400);

    const after = (await admin.client.get('/api/admin/leads?limit=1')).headers['x-total-count'];
    expect(after).toBe(before);
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    const csv = `state,city,age,category,firstName\nTX,Austin,65,MEDICARE,${tag('anon')}\n`;
    expect((await upload(agent.client, csv)).statusCode).toBe(403);
    expect((await upload(new Client(ctx.app), csv)).statusCode).toBe(401);
  });
});

describe('import size limit', () => {
  const small = setupTestApp({ MAX_UPLOAD_BYTES: 10_000 });

  it('answers 413 with a message when the file is over MAX_UPLOAD_BYTES, and stores none of it', async () => {
    const admin = await loginAdmin(small);
    const t = tag('big');
    const rows = Array.from({ length: 400 }, (_, i) => `TX,Austin,65,MEDICARE,${t}-${i}`);
    const csv = `state,city,age,category,firstName\n${rows.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(10_000);
    const res = await upload(admin.client, csv);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is larger than the upload limit of 9.8 KB');
    const listed = await admin.client.get(`/api/admin/leads?q=${t}`);
    expect(listed.headers['x-total-count']).toBe('0');

    // a body declared far over the limit is refused before it is read
    const huge = `state,city,age,category,firstName\n${'TX,Austin,65,MEDICARE,x\n'.repeat(5000)}`;
    const early = await upload(admin.client, huge);
    expect(early.statusCode).toBe(413);
    expect(early.json().message).toBe('The file is larger than the upload limit of 9.8 KB');

    // a file just under the limit goes through
    const fits = `state,city,age,category,firstName\n${rows.slice(0, 100).join('\n')}\n`;
    expect(fits.length).toBeLessThan(10_000);
    const ok = await upload(admin.client, fits);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().imported).toBe(100);
  });
});
