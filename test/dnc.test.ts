import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import { DNC_UPLOAD_MAX_BYTES } from '../src/shared/contracts/dnc';
import { insertLeads } from './support/admin-fixtures';
import {
  type Client,
  loginAdmin,
  registerAgent,
  setupTestApp,
  testConfig,
} from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });

function postCsv(client: Client, csv: string, type = 'text/csv') {
  return client.request('POST', '/api/admin/dnc', csv, { 'content-type': type });
}

async function list(client: Client, query = '') {
  const res = await client.get(`/api/admin/dnc${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    count: number;
    total: number;
    items: { phone: string; addedAt: string; addedBy: { id: number; name: string } | null }[];
  };
}

describe('the do-not-call list', () => {
  it('takes a CSV with a phone column: good lines kept in E.164, bad ones reported by line', async () => {
    const admin = await loginAdmin(ctx);
    const csv = [
      'name,phone',
      'Ann,(305) 555-0123',
      'Bob,not a number',
      '',
      'Cy,"+1 212 555 0199"',
      'Di,',
      'Ed,305.555.0123',
    ].join('\r\n');
    const res = await postCsv(admin.client, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      added: 2,
      // line 7 is line 2's number written another way
      alreadyListed: 1,
      errors: [
        { line: 3, reason: "'not a number' is not a valid phone number" },
        { line: 6, reason: 'no phone number' },
      ],
      errorCount: 2,
    });
    const page = await list(admin.client);
    expect(page.count).toBe(2);
    expect(page.items.map((i) => i.phone).sort()).toEqual(['+12125550199', '+13055550123']);
    expect(page.items[0]?.addedBy).toEqual({ id: admin.id, name: 'Admin' });
    expect(Date.now() - Date.parse(page.items[0]?.addedAt ?? '')).toBeLessThan(60_000);
  });

  it('takes one number a line without a header, and JSON {phones}; numbers already listed are counted, not added twice', async () => {
    const admin = await loginAdmin(ctx);
    const before = (await list(admin.client)).count;
    const res = await postCsv(
      admin.client,
      '2025550143\n2025550143\n+14155552671\n123\n',
      'text/plain',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      added: 2,
      alreadyListed: 1,
      errors: [{ line: 4, reason: "'123' is not a valid phone number" }],
      errorCount: 1,
    });
    const json = await admin.client.post('/api/admin/dnc', {
      phones: ['(202) 555-0143', '646-555-0100', 'x'],
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toEqual({
      added: 1,
      alreadyListed: 1,
      errors: [{ line: 3, reason: "'x' is not a valid phone number" }],
      errorCount: 1,
    });
    expect((await list(admin.client)).count).toBe(before + 3);
  });

  it('refuses a CSV whose header has no phone column, adding nothing', async () => {
    const admin = await loginAdmin(ctx);
    const before = (await list(admin.client)).count;
    const res = await postCsv(admin.client, 'name,email\nAnn,ann@example.com\n');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      added: 0,
      errors: [{ line: 1, reason: 'The header has no phone column' }],
    });
    expect((await list(admin.client)).count).toBe(before);
  });

  it('searches by the digits of a number and pages newest first', async () => {
    const admin = await loginAdmin(ctx);
    await admin.client.post('/api/admin/dnc', { phones: ['(720) 555-0111', '(720) 555-0112'] });
    const found = await list(admin.client, `?q=${encodeURIComponent('(720) 555-011')}`);
    expect(found.total).toBe(2);
    expect(found.count).toBeGreaterThan(2);
    expect(found.items.map((i) => i.phone)).toEqual(['+17205550111', '+17205550112']);
    const one = await list(admin.client, '?q=7205550112');
    expect(one.items.map((i) => i.phone)).toEqual(['+17205550112']);
    const page = await list(admin.client, '?limit=1&offset=1');
    expect(page.items).toHaveLength(1);
    expect((await admin.client.get('/api/admin/dnc?q=abc')).statusCode).toBe(400);
  });

  it('removes a number written any way; 404 when it is not listed', async () => {
    const admin = await loginAdmin(ctx);
    await admin.client.post('/api/admin/dnc', { phones: ['+13035550177'] });
    const del = await admin.client.delete(`/api/admin/dnc/${encodeURIComponent('(303) 555-0177')}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ phone: '+13035550177' });
    expect((await list(admin.client, '?q=3035550177')).total).toBe(0);
    const again = await admin.client.delete(`/api/admin/dnc/${encodeURIComponent('+13035550177')}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('+13035550177 is not on the do-not-call list');
    expect((await admin.client.delete('/api/admin/dnc/12')).statusCode).toBe(400);
  });

  it('refuses an oversized body (413) and wrong types (400)', async () => {
    const admin = await loginAdmin(ctx);
    const before = (await list(admin.client)).count;
    const line = '3055550123\n';
    const big = line.repeat(Math.ceil(DNC_UPLOAD_MAX_BYTES / line.length) + 1);
    const tooBig = await postCsv(admin.client, big);
    expect(tooBig.statusCode).toBe(413);
    for (const body of [{ phones: '3055550123' }, { phones: [3055550123] }, { phones: [] }, {}]) {
      const res = await admin.client.post('/api/admin/dnc', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const xml = await admin.client.request('POST', '/api/admin/dnc', '<phones/>', {
      'content-type': 'application/xml',
    });
    expect(xml.statusCode).toBe(415);
    expect((await list(admin.client)).count).toBe(before);
  });

  it('a lead put on the list after its assignment is flagged to its agent, on the lead and in the bell', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app, 'Dina Agent');
    const [working, closed] = await insertLeads(ctx, [
      {
        firstName: 'Late',
        lastName: 'Optout',
        phone: '+13125550142',
        agentId: agent.id,
        status: 'CONTACTED',
      },
      {
        firstName: 'Long',
        lastName: 'Gone',
        phone: '+13125550143',
        agentId: agent.id,
        status: 'CONVERTED',
      },
    ]);
    const before = await agent.client.get(`/api/agent/leads/${working.id}`);
    expect(before.json().onDnc).toBe(false);

    const added = await admin.client.post('/api/admin/dnc', {
      phones: ['(312) 555-0142', '312-555-0143'],
    });
    expect(added.statusCode, added.body).toBe(200);

    // the lead itself says so, in the list and opened alone
    expect((await agent.client.get(`/api/agent/leads/${working.id}`)).json().onDnc).toBe(true);
    const listed = (await agent.client.get('/api/agent/leads')).json() as {
      id: number;
      onDnc: boolean;
    }[];
    expect(listed.find((l) => l.id === working.id)?.onDnc).toBe(true);
    // the bell names the lead still being worked, with the lead to open; a converted one is not news
    const bell = (await agent.client.get('/api/agent/notifications')).json();
    const notices = bell.items.filter((n: { kind: string }) => n.kind === 'lead.dnc');
    expect(notices).toEqual([
      expect.objectContaining({
        leadId: working.id,
        title: 'A lead is on the do-not-call list now',
        body: expect.stringContaining('Late Optout was added to the do-not-call list'),
      }),
    ]);
    expect(closed.id).not.toBe(working.id);
    // listing a number again is not news either
    await admin.client.post('/api/admin/dnc', { phones: ['+13125550142'] });
    const again = (await agent.client.get('/api/agent/notifications')).json();
    expect(again.items.filter((n: { kind: string }) => n.kind === 'lead.dnc')).toHaveLength(1);
  });

  it('is for admins only', async () => {
    const agent = await registerAgent(ctx.app);
    expect((await agent.client.get('/api/admin/dnc')).statusCode).toBe(403);
    expect((await agent.client.post('/api/admin/dnc', { phones: ['3055550123'] })).statusCode).toBe(
      403,
    );
  });
});

/** A CSV of one number a line, `line(i)` for the i-th, as many lines as fit in the size limit. */
function csvAtTheLimit(line: (i: number) => string): { csv: string; lines: number } {
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; ; i++) {
    const next = `${line(i)}\n`;
    if (bytes + next.length > DNC_UPLOAD_MAX_BYTES) return { csv: parts.join(''), lines: i };
    parts.push(next);
    bytes += next.length;
  }
}

/** Sends a request over HTTP, as another client would; resolves with its status. */
function send(port: number, method: string, path: string, headers = {}, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: 'localhost:80', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('an upload at the size limit', () => {
  let app: FastifyInstance;
  let port: number;
  /** what was answered, in order: the uploads, and GET /api/health asked as an upload starts */
  const order: string[] = [];
  const healthAnswers: Promise<{ status: number }>[] = [];
  beforeAll(async () => {
    app = await buildApp({ config: testConfig(), database: ctx.database, serveSpa: false });
    // marks the moment the upload's handler is about to start: another client asks then
    app.addHook('preHandler', async (request) => {
      if (request.method === 'POST' && request.routeOptions.url === '/api/admin/dnc') {
        healthAnswers.push(
          send(port, 'GET', '/api/health').then((res) => {
            order.push('health');
            return res;
          }),
        );
      }
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets another request be answered while its numbers are normalized, and reports every bad line', async () => {
    const admin = await loginAdmin(ctx);
    // numbers that parse as far as the check of their area code: each costs the full
    // normalization, and none is stored, so the upload does no database work after it
    const { csv, lines } = csvAtTheLimit((i) => `(0${String(i % 100).padStart(2, '0')}) 555-0100`);
    expect(lines).toBeGreaterThan(100_000);
    const upload = send(
      port,
      'POST',
      '/api/admin/dnc',
      { cookie: admin.client.cookie, 'content-type': 'text/csv' },
      csv,
    ).then((res) => {
      order.push('upload');
      return res;
    });
    const uploaded = await upload;
    expect(healthAnswers).toHaveLength(1);
    const healthy = await healthAnswers[0];
    expect(healthy.status).toBe(200);
    expect(order).toEqual(['health', 'upload']);
    expect(uploaded.status, uploaded.body).toBe(200);
    const result = JSON.parse(uploaded.body);
    expect(result).toMatchObject({ added: 0, alreadyListed: 0, errorCount: lines });
    expect(result.errors).toHaveLength(500);
    expect(result.errors[0]).toEqual({
      line: 1,
      reason: "'(000) 555-0100' is not a valid phone number",
    });
    expect(result.errors[499]).toEqual({
      line: 500,
      reason: "'(099) 555-0100' is not a valid phone number",
    });
  });

  it('stores every number of a CSV at the size limit, once', async () => {
    const admin = await loginAdmin(ctx);
    const before = (await list(admin.client)).count;
    // distinct valid numbers (exchanges 200 and up), the last line repeating the first
    const number = (i: number) =>
      `(415) ${200 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    const { csv, lines } = csvAtTheLimit((i) => number(i));
    const withRepeat = `${csv.slice(0, csv.lastIndexOf('\n', csv.length - 2) + 1)}${number(0)}\n`;
    const res = await postCsv(admin.client, withRepeat);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      added: lines - 1,
      alreadyListed: 1,
      errors: [],
      errorCount: 0,
    });
    expect((await list(admin.client)).count).toBe(before + lines - 1);
    expect((await list(admin.client, '?q=4152000000')).total).toBe(1);
  });
});
