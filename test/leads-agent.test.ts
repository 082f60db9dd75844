import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { leadHistory, leads } from '../src/server/db/schema';
import { businessDate } from '../src/server/lib/business-time';
import { insertLeads } from './support/agent-fixtures';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();
const today = () => businessDate(ctx.app.config.BUSINESS_TZ);

async function historyOf(leadId: number) {
  return ctx.database.db
    .select()
    .from(leadHistory)
    .where(eq(leadHistory.leadId, leadId))
    .orderBy(leadHistory.id);
}

async function statusOf(leadId: number) {
  const [row] = await ctx.database.db.select().from(leads).where(eq(leads.id, leadId));
  return row.status;
}

describe('GET /api/agent/leads', () => {
  it('answers only the agent own leads, newest received first when asked, with every field', async () => {
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app, 'Other Agent');
    const base = Date.now() - 3_600_000;
    const [oldest, middle, newest] = await insertLeads(ctx.database.db, [
      { agentId: agent.id, assignedOn: today(), createdAt: new Date(base) },
      { agentId: agent.id, assignedOn: today(), createdAt: new Date(base + 60_000) },
      {
        agentId: agent.id,
        assignedOn: today(),
        createdAt: new Date(base + 120_000),
        firstName: 'Maria',
        lastName: 'Lopez',
        phone: '555-0101',
        email: 'maria@example.com',
        city: 'Miami',
        state: 'FL',
        age: 70,
        category: 'FINAL_EXPENSE',
        status: 'CONTACTED',
      },
    ]);
    await insertLeads(ctx.database.db, [
      { agentId: other.id, assignedOn: today() },
      { status: 'NEW' },
    ]);

    const res = await agent.client.get('/api/agent/leads?sort=newest');
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((l: { id: number }) => l.id)).toEqual([newest.id, middle.id, oldest.id]);
    expect(list[0]).toMatchObject({
      id: newest.id,
      firstName: 'Maria',
      lastName: 'Lopez',
      phone: '555-0101',
      email: 'maria@example.com',
      city: 'Miami',
      state: 'FL',
      age: 70,
      category: 'FINAL_EXPENSE',
      status: 'CONTACTED',
      agentId: agent.id,
    });
    expect(new Date(list[0].createdAt).getTime()).toBe(base + 120_000);
  });

  it('filters by ?status= and refuses an unknown status with 400', async () => {
    const agent = await registerAgent(ctx.app);
    const rows = await insertLeads(ctx.database.db, [
      { agentId: agent.id, status: 'CONVERTED' },
      { agentId: agent.id, status: 'ASSIGNED' },
      { agentId: agent.id, status: 'CONVERTED' },
      { agentId: agent.id, status: 'INVALID' },
    ]);
    const converted = (await agent.client.get('/api/agent/leads?status=CONVERTED')).json();
    expect(converted.map((l: { id: number }) => l.id).sort()).toEqual(
      [rows[0].id, rows[2].id].sort(),
    );
    expect((await agent.client.get('/api/agent/leads?status=NEW')).json()).toEqual([]);
    const bad = await agent.client.get('/api/agent/leads?status=WON');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Status must be one of: NEW, ASSIGNED/);
  });

  it('pages with ?limit and ?offset, searches with ?q, and gives the total in X-Total-Count', async () => {
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app, 'Other Agent');
    const base = Date.now() - 7_200_000;
    const own = await insertLeads(
      ctx.database.db,
      Array.from({ length: 7 }, (_, i) => ({
        agentId: agent.id,
        assignedOn: today(),
        createdAt: new Date(base + i * 60_000),
        firstName: i < 3 ? 'Rosa' : 'Tom',
        lastName: `Diaz${i}`,
        phone: `+121255501${i}0`, // stored in E.164, searched in any spelling
        email: `lead${i}@example.com`,
        status: i === 6 ? ('CONVERTED' as const) : ('ASSIGNED' as const),
      })),
    );
    await insertLeads(ctx.database.db, [
      { agentId: other.id, assignedOn: today(), firstName: 'Rosa' },
    ]);
    const newestFirst = own.map((l) => l.id).reverse();
    const get = async (query: string) => {
      const res = await agent.client.get(`/api/agent/leads?sort=newest${query.replace('?', '&')}`);
      expect(res.statusCode, res.body).toBe(200);
      return {
        ids: res.json().map((l: { id: number }) => l.id),
        total: Number(res.headers['x-total-count']),
      };
    };
    expect(await get('')).toEqual({ ids: newestFirst, total: 7 });
    expect(await get('?limit=3')).toEqual({ ids: newestFirst.slice(0, 3), total: 7 });
    expect(await get('?limit=3&offset=6')).toEqual({ ids: newestFirst.slice(6), total: 7 });
    expect(await get('?limit=3&status=CONVERTED')).toEqual({ ids: [own[6].id], total: 1 });
    // the name, phone or email, case-insensitively, and only the agent's own leads
    expect(await get('?limit=2&q=ROSA')).toEqual({
      ids: [own[2].id, own[1].id],
      total: 3,
    });
    expect(await get('?q=555-0150')).toEqual({ ids: [own[5].id], total: 1 });
    // a full name, first and last in either order
    expect(await get('?limit=5&q=Rosa%20Diaz1')).toEqual({ ids: [own[1].id], total: 1 });
    expect(await get('?limit=5&q=diaz2%20%20ROSA')).toEqual({ ids: [own[2].id], total: 1 });
    expect(await get('?limit=5&q=Tom%20Diaz1')).toEqual({ ids: [], total: 0 });
    expect(await get('?limit=5&q=LEAD4%40EXAMPLE')).toEqual({ ids: [own[4].id], total: 1 });
    expect(await get('?limit=5&q=rosa&status=CONVERTED')).toEqual({ ids: [], total: 0 });
    // LIKE wildcards match literally
    expect(await get('?limit=5&q=%25')).toEqual({ ids: [], total: 0 });
    expect((await agent.client.get('/api/agent/leads?limit=0')).statusCode).toBe(400);
    expect((await agent.client.get('/api/agent/leads?limit=1001')).statusCode).toBe(400);
    expect((await agent.client.get('/api/agent/leads?offset=-1')).statusCode).toBe(400);
  });

  it('answers an empty list to an agent without leads, 401 without a session, 403 to an admin', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/agent/leads')).json()).toEqual([]);
    expect((await new Client(ctx.app).get('/api/agent/leads')).statusCode).toBe(401);
    const admin = await loginAdmin(ctx);
    expect((await admin.client.get('/api/agent/leads')).statusCode).toBe(403);
  });
});

describe('POST /api/agent/leads/{id}/status', () => {
  it('changes the status of an own lead and records each change in its history', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [
      { agentId: agent.id, assignedOn: today(), status: 'ASSIGNED' },
    ]);

    const first = await agent.client.post(`/api/agent/leads/${lead.id}/status`, {
      status: 'CONTACTED',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: lead.id, status: 'CONTACTED', agentId: agent.id });
    expect(await statusOf(lead.id)).toBe('CONTACTED');

    const second = await agent.client.post(`/api/agent/leads/${lead.id}/status`, {
      status: 'CONVERTED',
    });
    expect(second.json().status).toBe('CONVERTED');

    const history = await historyOf(lead.id);
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({
      kind: 'STATUS_CHANGED',
      actorId: agent.id,
      agentId: agent.id,
      fromStatus: 'ASSIGNED',
      toStatus: 'CONTACTED',
    });
    expect(history[1]).toMatchObject({ fromStatus: 'CONTACTED', toStatus: 'CONVERTED' });
    expect(history[1].createdAt).toBeInstanceOf(Date);

    // the list and the stats see the change
    const list = (await agent.client.get('/api/agent/leads?status=CONVERTED')).json();
    expect(list.map((l: { id: number }) => l.id)).toEqual([lead.id]);
    expect((await agent.client.get('/api/agent/stats')).json().convertedLeads).toBe(1);
  });

  it('lets the agent move between any of the four statuses, back included', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, status: 'CONVERTED' }]);
    for (const status of ['INVALID', 'IN_PROGRESS', 'CONTACTED', 'CONVERTED']) {
      const res = await agent.client.post(`/api/agent/leads/${lead.id}/status`, { status });
      expect(res.statusCode, status).toBe(200);
      expect(await statusOf(lead.id)).toBe(status);
    }
    expect((await historyOf(lead.id)).map((h) => h.toStatus)).toEqual([
      'INVALID',
      'IN_PROGRESS',
      'CONTACTED',
      'CONVERTED',
    ]);
  });

  it('keeps an unbroken history under concurrent updates: each from is the previous to', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, status: 'ASSIGNED' }]);
    const statuses = ['CONTACTED', 'IN_PROGRESS', 'CONVERTED', 'INVALID'];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        agent.client.post(`/api/agent/leads/${lead.id}/status`, { status: statuses[i % 4] }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const history = await historyOf(lead.id);
    expect(history.length).toBeGreaterThan(0);
    expect(history[0].fromStatus).toBe('ASSIGNED');
    for (let i = 1; i < history.length; i++) {
      expect(history[i].fromStatus).toBe(history[i - 1].toStatus);
      expect(history[i].fromStatus).not.toBe(history[i].toStatus);
    }
    expect(history.at(-1)?.toStatus).toBe(await statusOf(lead.id));
  });

  it('writes no history when the status does not change', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, status: 'CONTACTED' }]);
    const res = await agent.client.post(`/api/agent/leads/${lead.id}/status`, {
      status: 'CONTACTED',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('CONTACTED');
    expect(await historyOf(lead.id)).toHaveLength(0);
  });

  it("answers 404 for another agent's lead and for an unknown lead, changing nothing", async () => {
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app, 'Other Agent');
    const [theirs, unassigned] = await insertLeads(ctx.database.db, [
      { agentId: other.id, status: 'ASSIGNED' },
      { status: 'NEW' },
    ]);
    for (const id of [theirs.id, unassigned.id, 999_999_999]) {
      const res = await agent.client.post(`/api/agent/leads/${id}/status`, {
        status: 'CONVERTED',
      });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ message: 'Lead not found' });
    }
    expect(await statusOf(theirs.id)).toBe('ASSIGNED');
    expect(await statusOf(unassigned.id)).toBe('NEW');
    expect(await historyOf(theirs.id)).toHaveLength(0);
  });

  it('answers 400 with a message for a status outside the four, changing nothing', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, status: 'ASSIGNED' }]);
    for (const body of [
      { status: 'NEW' },
      { status: 'ASSIGNED' },
      { status: 'WON' },
      { status: 'contacted' },
      {},
    ]) {
      const res = await agent.client.post(`/api/agent/leads/${lead.id}/status`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      // a sentence, and the field it is about
      expect(res.json().message).toMatch(
        /^Status (is required|must be one of: CONTACTED, IN_PROGRESS, CONVERTED, INVALID)\.$/,
      );
      expect(res.json().errors).toEqual([{ field: 'status', message: expect.any(String) }]);
    }
    const badId = await agent.client.post('/api/agent/leads/abc/status', { status: 'CONTACTED' });
    expect(badId.statusCode).toBe(400);
    expect(await statusOf(lead.id)).toBe('ASSIGNED');
    expect(await historyOf(lead.id)).toHaveLength(0);
  });

  it('answers 401 without a session and 403 to an admin', async () => {
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, status: 'ASSIGNED' }]);
    const anon = await new Client(ctx.app).post(`/api/agent/leads/${lead.id}/status`, {
      status: 'CONVERTED',
    });
    expect(anon.statusCode).toBe(401);
    const admin = await loginAdmin(ctx);
    const res = await admin.client.post(`/api/agent/leads/${lead.id}/status`, {
      status: 'CONVERTED',
    });
    expect(res.statusCode).toBe(403);
    expect(await statusOf(lead.id)).toBe('ASSIGNED');
  });
});

describe("My Leads' order", () => {
  it('lists the uncontacted (ASSIGNED) first by default, each part newest received first; sort=newest and sort=oldest by received alone', async () => {
    const agent = await registerAgent(ctx.app);
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const [oldNew, contacted, freshNew, converted] = await insertLeads(ctx.database.db, [
      { agentId: agent.id, assignedAt: at(50) },
      { agentId: agent.id, assignedAt: at(5), status: 'CONTACTED' },
      { agentId: agent.id, assignedAt: at(20) },
      { agentId: agent.id, assignedAt: at(30), status: 'CONVERTED' },
    ]);
    const ids = async (query: string) =>
      (await agent.client.get(`/api/agent/leads${query}`)).json().map((l: { id: number }) => l.id);
    expect(await ids('?limit=10')).toEqual([freshNew.id, oldNew.id, contacted.id, converted.id]);
    expect(await ids('?sort=uncontacted')).toEqual(await ids(''));
    expect(await ids('?sort=newest&limit=10')).toEqual([
      contacted.id,
      freshNew.id,
      converted.id,
      oldNew.id,
    ]);
    expect(await ids('?sort=oldest&limit=2')).toEqual([oldNew.id, converted.id]);
    expect((await agent.client.get('/api/agent/leads?sort=random')).statusCode).toBe(400);
  });
});

describe('a link to one lead (GET /api/agent/leads/{id})', () => {
  it("answers the agent's own lead with its pending return, and another agent's lead with the same 404 as none, naming nothing of it", async () => {
    const agent = await registerAgent(ctx.app);
    const other = await registerAgent(ctx.app, 'Other Agent');
    const [own, theirs] = await insertLeads(ctx.database.db, [
      { agentId: agent.id, firstName: 'Wanda', lastName: 'Own' },
      { agentId: other.id, firstName: 'Secret', lastName: 'Theirs', email: 'secret@example.com' },
    ]);
    const res = await agent.client.get(`/api/agent/leads/${own.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: own.id, firstName: 'Wanda', returnPending: false });

    const returned = await agent.client.post(`/api/agent/leads/${own.id}/return`, {
      reason: 'WRONG_NUMBER',
    });
    expect(returned.statusCode, returned.body).toBe(201);
    expect((await agent.client.get(`/api/agent/leads/${own.id}`)).json().returnPending).toBe(true);
    const listed = (await agent.client.get('/api/agent/leads')).json();
    expect(listed.find((l: { id: number }) => l.id === own.id).returnPending).toBe(true);

    const foreign = await agent.client.get(`/api/agent/leads/${theirs.id}`);
    const missing = await agent.client.get('/api/agent/leads/999999999');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect(foreign.body).not.toMatch(/Secret|Theirs|secret@/);
  });

  it('answers any lead to an admin (GET /api/admin/leads/{id})', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    const [lead] = await insertLeads(ctx.database.db, [{ agentId: agent.id, firstName: 'Ada' }]);
    const res = await admin.client.get(`/api/admin/leads/${lead.id}`);
    expect(res.json()).toMatchObject({ id: lead.id, agentId: agent.id, firstName: 'Ada' });
    expect((await admin.client.get('/api/admin/leads/999999999')).statusCode).toBe(404);
  });
});
