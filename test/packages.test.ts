import { describe, expect, it } from 'vitest';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

let seq = 0;
function body(overrides: Record<string, unknown> = {}) {
  seq++;
  return {
    name: `Medicare Pro ${seq}`,
    slug: `medicare-pro-${process.pid}-${seq}`,
    priceMonthlyCents: 29_999,
    leadsPerDay: 10,
    commissionPct: 15,
    category: 'MEDICARE',
    enrollmentOnly: false,
    services: { crm: true, callRecording: true, followUpMessage: false },
    active: true,
    pricing: 'SUBSCRIPTION',
    perLeadCents: null,
    ...overrides,
  };
}

/** What the API answers beside the body: the lowest price per lead (none for a subscription). */
const SUBSCRIPTION_EXTRAS = { pricing: 'SUBSCRIPTION', perLeadCents: null, fromPerLeadCents: null };

describe('admin packages', () => {
  it('creates a package (201) that both the admin list and the public list show', async () => {
    const admin = await loginAdmin(ctx);
    const input = body({ category: 'FINAL_EXPENSE', enrollmentOnly: true });
    const res = await admin.client.post('/api/admin/packages', input);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(Number), ...input, ...SUBSCRIPTION_EXTRAS });
    const adminList = (await admin.client.get('/api/admin/packages')).json();
    expect(adminList).toContainEqual(created);
    const publicList = (await new Client(ctx.app).get('/api/packages')).json();
    // this server has neither Twilio nor SMTP: Call Recording cannot be provided, and says so
    expect(publicList).toContainEqual({ ...created, unavailableServices: ['callRecording'] });
  });

  it('offers each package with the services it includes that this server cannot provide', async () => {
    const admin = await loginAdmin(ctx);
    const all = body({ services: { crm: true, callRecording: true, followUpMessage: true } });
    const crmOnly = body({ services: { crm: true, callRecording: false, followUpMessage: false } });
    for (const b of [all, crmOnly])
      expect((await admin.client.post('/api/admin/packages', b)).statusCode).toBe(201);
    const offered = (await new Client(ctx.app).get('/api/packages')).json() as {
      slug: string;
      unavailableServices: string[];
    }[];
    expect(offered.find((p) => p.slug === all.slug)?.unavailableServices).toEqual([
      'callRecording',
      'followUpMessage',
    ]);
    // a service the package does not include is not "unavailable": it is not offered at all
    expect(offered.find((p) => p.slug === crmOnly.slug)?.unavailableServices).toEqual([]);
    // the admin's own list is the packages as stored
    const adminList = (await admin.client.get('/api/admin/packages')).json();
    expect(adminList.find((p: { slug: string }) => p.slug === all.slug)).not.toHaveProperty(
      'unavailableServices',
    );
  });

  it('answers 409 for a duplicate slug and keeps the first package', async () => {
    const admin = await loginAdmin(ctx);
    const first = body();
    expect((await admin.client.post('/api/admin/packages', first)).statusCode).toBe(201);
    const dup = await admin.client.post('/api/admin/packages', { ...body(), slug: first.slug });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(`A package with the slug '${first.slug}' already exists`);
    const list = (await admin.client.get('/api/admin/packages')).json();
    expect(list.filter((p: { slug: string }) => p.slug === first.slug)).toHaveLength(1);
    expect(list.find((p: { slug: string }) => p.slug === first.slug).name).toBe(first.name);
  });

  it('edits every field but the slug; a different slug is refused with 400', async () => {
    const admin = await loginAdmin(ctx);
    const created = (await admin.client.post('/api/admin/packages', body())).json();
    const changes = {
      name: 'Renamed',
      slug: created.slug,
      priceMonthlyCents: 4_950,
      leadsPerDay: 3,
      commissionPct: 40,
      category: 'ACA',
      enrollmentOnly: true,
      services: { crm: false, callRecording: false, followUpMessage: true },
      active: false,
    };
    const res = await admin.client.put(`/api/admin/packages/${created.id}`, changes);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: created.id, ...changes, ...SUBSCRIPTION_EXTRAS });

    const slugChange = await admin.client.put(`/api/admin/packages/${created.id}`, {
      ...changes,
      slug: 'something-else',
    });
    expect(slugChange.statusCode).toBe(400);
    expect(slugChange.json().message).toBe('The slug cannot be changed once the package exists');
    const stored = (await admin.client.get('/api/admin/packages'))
      .json()
      .find((p: { id: number }) => p.id === created.id);
    expect(stored.slug).toBe(created.slug);

    expect((await admin.client.put('/api/admin/packages/999999', changes)).statusCode).toBe(404);
  });

  it('deactivates with PATCH: the public list hides it, the admin list keeps it; activates again', async () => {
    const admin = await loginAdmin(ctx);
    const created = (await admin.client.post('/api/admin/packages', body())).json();
    const off = await admin.client.patch(`/api/admin/packages/${created.id}`, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...created, active: false });
    const publicIds = async () =>
      (await new Client(ctx.app).get('/api/packages')).json().map((p: { id: number }) => p.id);
    expect(await publicIds()).not.toContain(created.id);
    expect(
      (await admin.client.get('/api/admin/packages')).json().map((p: { id: number }) => p.id),
    ).toContain(created.id);
    const on = await admin.client.patch(`/api/admin/packages/${created.id}`, { active: true });
    expect(on.json().active).toBe(true);
    expect(await publicIds()).toContain(created.id);
    expect(
      (await admin.client.patch('/api/admin/packages/999999', { active: true })).statusCode,
    ).toBe(404);
    expect(
      (await admin.client.patch(`/api/admin/packages/${created.id}`, { active: 'no' })).statusCode,
    ).toBe(400);
  });

  it('validates the form rules: required fields, whole cents, integer leads and commission', async () => {
    const admin = await loginAdmin(ctx);
    const bad = [
      body({ name: '' }),
      body({ slug: '' }),
      body({ slug: 'Has Spaces' }),
      body({ priceMonthlyCents: 19.99 }),
      body({ priceMonthlyCents: -1 }),
      body({ leadsPerDay: 2.5 }),
      body({ leadsPerDay: 0 }),
      body({ commissionPct: 12.5 }),
      body({ commissionPct: 101 }),
      body({ category: 'LIFE' }),
      body({ services: { crm: true } }),
    ];
    for (const b of bad) {
      const res = await admin.client.post('/api/admin/packages', b);
      expect(res.statusCode, JSON.stringify(b)).toBe(400);
      expect(res.json().message).not.toMatch(/Invalid|Too (small|big)|expected/);
      expect(res.json().errors.length).toBeGreaterThan(0);
    }
    const slugs = (await admin.client.get('/api/admin/packages'))
      .json()
      .map((p: { slug: string }) => p.slug);
    for (const b of bad) expect(slugs).not.toContain(b.slug);
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    const anon = new Client(ctx.app);
    expect((await agent.client.get('/api/admin/packages')).statusCode).toBe(403);
    expect((await anon.get('/api/admin/packages')).statusCode).toBe(401);
    const input = body();
    expect((await agent.client.post('/api/admin/packages', input)).statusCode).toBe(403);
    expect((await anon.post('/api/admin/packages', input)).statusCode).toBe(401);
    expect((await agent.client.patch('/api/admin/packages/1', { active: false })).statusCode).toBe(
      403,
    );
    expect((await agent.client.put('/api/admin/packages/1', input)).statusCode).toBe(403);
    const slugs = (await new Client(ctx.app).get('/api/packages'))
      .json()
      .map((p: { slug: string }) => p.slug);
    expect(slugs).not.toContain(input.slug);
  });
});
