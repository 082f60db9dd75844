import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { imports, leadHistory, leads } from '../src/server/db/schema';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

let seq = 0;
/** A unique token for this file's rows, so searches only see what a test created. */
function tag(prefix = 't'): string {
  return `${prefix}${process.pid}x${Date.now().toString(36)}x${++seq}`;
}

import { uploadCsv as upload } from './support/csv-upload';

describe('POST /api/admin/leads/import', () => {
  it('stores the good rows, reports each bad row with its line and reason, and records the import', async () => {
    const admin = await loginAdmin(ctx);
    const t = tag('imp');
    const csv = [
      'State,City,Age,Category,firstName,lastName,Phone,Email,externalId',
      `TX,Austin,65,MEDICARE,Ann,${t},512-555-0001,ann@example.com,${t}-1`,
      `california,"San Jose, CA",40,aca,Bob,${t},,${t}-bob@example.com,${t}-2`,
      `ZZ,Dallas,70,MEDICARE,Bad,${t},,${t}-3@example.com,${t}-3`,
      `TX,Dallas,17,MEDICARE,Young,${t},,${t}-4@example.com,${t}-4`,
      `FL,Miami,80,LIFE,Cat,${t},,${t}-5@example.com,${t}-5`,
      '',
      `NY,Albany,55,final expense,Dee,${t},,${t}-dee@example.com,`,
      `TX,Waco,60,ACA,Nobody,${t},,,${t}-6`,
    ].join('\r\n');
    const res = await upload(admin.client, `\uFEFF${csv}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ imported: 3, duplicates: 0, errorCount: 4 });
    // no agent of this file has a subscription, so whatever runs after the import assigns none
    expect([0, null]).toContain(body.assigned);
    expect(body.errors).toEqual([
      { line: 4, reason: "Invalid state: 'ZZ'" },
      { line: 5, reason: "Age must be an integer from 18 to 120: '17'" },
      { line: 6, reason: "Unknown category: 'LIFE'" },
      { line: 9, reason: 'Missing phone and email: a lead needs at least one of them' },
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
      rowsSeen: 7,
      imported: 3,
      duplicates: 0,
      errorCount: 4,
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
    const header = 'state,city,age,category,externalId,firstName,email';
    const first = await upload(
      admin.client,
      `${header}\nTX,Austin,65,MEDICARE,${t}-a,${t},${t}-1@example.com\nTX,Austin,66,MEDICARE,${t}-b,${t},${t}-2@example.com\n`,
    );
    expect(first.json()).toMatchObject({ imported: 2, duplicates: 0, errorCount: 0 });
    const second = await upload(
      admin.client,
      `${header}\nTX,Austin,65,MEDICARE,${t}-b,${t},${t}-3@example.com\nTX,Austin,67,MEDICARE,${t}-c,${t},${t}-4@example.com\nTX,Austin,68,MEDICARE,,${t},${t}-5@example.com\n`,
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
    const rows = Array.from(
      { length: 300 },
      (_, i) => `TX,Austin,65,MEDICARE,${t}-${i},${t}-${i}@x.io`,
    );
    const csv = `state,city,age,category,firstName,email\n${rows.join('\n')}\n`;
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
    const fits = `state,city,age,category,firstName,email\n${rows.slice(0, 100).join('\n')}\n`;
    expect(fits.length).toBeLessThan(10_000);
    const ok = await upload(admin.client, fits);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().imported).toBe(100);
  });
});
