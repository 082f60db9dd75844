import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { uploadCsv } from './support/csv-upload';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });

let seq = 0;
const sourceName = () => `Vendor ${process.pid}-${++seq}`;

async function createSource(client: Client, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/admin/sources', {
    name: sourceName(),
    costPerLeadCents: 1250,
    ...body,
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; name: string; active: boolean };
}

function uploadWithSource(client: Client, csv: string, sourceId: string) {
  const form = new FormData();
  form.append('sourceId', sourceId);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'leads.csv');
  return client.request('POST', '/api/admin/leads/import', form);
}

describe('admin sources', () => {
  it('creates, lists, edits and deactivates a source', async () => {
    const admin = await loginAdmin(ctx);
    const name = sourceName();
    const res = await admin.client.post('/api/admin/sources', { name, costPerLeadCents: 1250 });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      name,
      costPerLeadCents: 1250,
      active: true,
      consentVerification: 'NONE',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      leads: 0,
      activeKeys: 0,
    });
    expect((await admin.client.get('/api/admin/sources')).json()).toContainEqual(created);

    const edited = await admin.client.patch(`/api/admin/sources/${created.id}`, {
      name: `${name} renamed`,
      costPerLeadCents: 900,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      name: `${name} renamed`,
      costPerLeadCents: 900,
      active: true,
    });

    const off = await admin.client.patch(`/api/admin/sources/${created.id}`, { active: false });
    expect(off.json()).toMatchObject({ active: false, costPerLeadCents: 900 });
  });

  it('refuses a name taken in any case (409), a bad body (400) and an unknown source (404)', async () => {
    const admin = await loginAdmin(ctx);
    const first = await createSource(admin.client);
    const again = await admin.client.post('/api/admin/sources', {
      name: first.name.toUpperCase(),
      costPerLeadCents: 0,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already exists/);
    // renaming onto another source's name, in any case (issue 24 item 14: it answered 500)
    const second = await createSource(admin.client);
    const rename = await admin.client.patch(`/api/admin/sources/${second.id}`, {
      name: first.name.toLowerCase(),
    });
    expect(rename.statusCode, rename.body).toBe(409);
    expect(rename.json().message).toMatch(/already exists/);
    const bad = await admin.client.post('/api/admin/sources', { name: ' ', costPerLeadCents: -1 });
    expect(bad.statusCode).toBe(400);
    expect(
      (await admin.client.patch('/api/admin/sources/999999', { active: false })).statusCode,
    ).toBe(404);
    expect((await admin.client.get('/api/admin/sources/999999/keys')).statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/sources')).statusCode).toBe(403);
    expect(
      (await agent.client.post('/api/admin/sources', { name: 'x', costPerLeadCents: 1 }))
        .statusCode,
    ).toBe(403);
    expect((await new Client(ctx.app).get('/api/admin/sources')).statusCode).toBe(401);
  });
});

describe('API keys', () => {
  it('shows a new key once, stores only its hash, lists it by prefix, and revokes it', async () => {
    const admin = await loginAdmin(ctx);
    const source = await createSource(admin.client);
    const res = await admin.client.post(`/api/admin/sources/${source.id}/keys`);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.key).toMatch(/^lf_live_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(20);
    expect(created).toMatchObject({ sourceId: source.id, lastUsedAt: null, revokedAt: null });

    const stored = await ctx.database.db.execute(
      sql`select key_hash from api_keys where id = ${created.id}`,
    );
    const hash = (stored as unknown as { rows: { key_hash: string }[] }).rows[0].key_hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(created.key);

    const list = (await admin.client.get(`/api/admin/sources/${source.id}/keys`)).json();
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('key');
    expect(list[0]).toMatchObject({ id: created.id, prefix: created.prefix });
    expect((await admin.client.get('/api/admin/sources')).json()).toContainEqual(
      expect.objectContaining({ id: source.id, activeKeys: 1 }),
    );

    const revoked = await admin.client.delete(`/api/admin/sources/${source.id}/keys/${created.id}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revokedAt).toEqual(expect.any(String));
    expect((await admin.client.get('/api/admin/sources')).json()).toContainEqual(
      expect.objectContaining({ id: source.id, activeKeys: 0 }),
    );
    // another source's key id under this source is not found
    const other = await createSource(admin.client);
    expect(
      (await admin.client.delete(`/api/admin/sources/${other.id}/keys/${created.id}`)).statusCode,
    ).toBe(404);
  });
});

describe('CSV import with a source', () => {
  let seq = 0;
  /** the same two externalIds, with emails not used before (an email is a duplicate within the window) */
  const file = () => {
    const e = `src-${process.pid}-${Date.now()}-${++seq}`;
    return `externalId,city,state,age,category,email\nS-1,Austin,TX,65,MEDICARE,${e}-1@example.com\nS-2,Dallas,TX,70,MEDICARE,${e}-2@example.com\n`;
  };

  it('stores the source on the import and on every lead; the same externalId is per source', async () => {
    const admin = await loginAdmin(ctx);
    const a = await createSource(admin.client);
    const b = await createSource(admin.client);
    const csv = file();
    const first = await uploadWithSource(admin.client, csv, String(a.id));
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ imported: 2, duplicates: 0 });
    const again = await uploadWithSource(admin.client, csv, String(a.id));
    expect(again.json()).toMatchObject({ imported: 0, duplicates: 2 });
    const other = await uploadWithSource(admin.client, file(), String(b.id));
    expect(other.json()).toMatchObject({ imported: 2, duplicates: 0 });

    const rows = await ctx.database.db.execute(
      sql`select l.source_id, i.source_id as import_source from leads l join imports i on i.id = l.import_id
           where l.import_id = ${first.json().importId}`,
    );
    const found = (rows as unknown as { rows: { source_id: number; import_source: number }[] })
      .rows;
    expect(found).toHaveLength(2);
    for (const r of found) expect(r).toEqual({ source_id: a.id, import_source: a.id });
    expect((await admin.client.get('/api/admin/sources')).json()).toContainEqual(
      expect.objectContaining({ id: a.id, leads: 2 }),
    );
  });

  it('refuses an unknown, inactive or malformed source with 400 and stores nothing', async () => {
    const admin = await loginAdmin(ctx);
    const off = await createSource(admin.client);
    await admin.client.patch(`/api/admin/sources/${off.id}`, { active: false });
    const csv = file();
    const unknown = await uploadWithSource(admin.client, csv, '999999');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/Unknown source/);
    const inactive = await uploadWithSource(admin.client, csv, String(off.id));
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().message).toMatch(/inactive/);
    const junk = await uploadWithSource(admin.client, csv, 'abc');
    expect(junk.statusCode).toBe(400);
    expect((await admin.client.get('/api/admin/sources')).json()).toContainEqual(
      expect.objectContaining({ id: off.id, leads: 0 }),
    );
  });

  it('still imports without a source', async () => {
    const admin = await loginAdmin(ctx);
    const res = await uploadCsv(
      admin.client,
      `city,state,age,category,email\nAustin,TX,65,MEDICARE,nosource-${process.pid}-${Date.now()}@example.com\n`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1 });
  });
});
