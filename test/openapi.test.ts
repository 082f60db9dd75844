import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DOCS_PREFIX, OPENAPI_PATH } from '../src/server/plugins/openapi';
import { registeredRoutes as registered } from './support/route-log';
import { setupTestApp } from './support/test-app';

vi.mock('fastify', async (importOriginal) =>
  (await import('./support/route-log')).fastifyWithRouteLog(importOriginal),
);

const ctx = setupTestApp();

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
  components: { securitySchemes: Record<string, unknown> };
}

async function document(): Promise<OpenApiDoc> {
  const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  return res.json();
}

/** Fastify's `/a/:id` is OpenAPI's `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const isReference = (url: string) =>
  url === OPENAPI_PATH || url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that describes every route the server registers', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    const served = registered
      .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api') && !isReference(r.url))
      .map((r) => `${r.method} ${openApiPath(r.url)}`);
    expect(served.length).toBeGreaterThan(25);
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect(
      served.filter((r) => !described.has(r)),
      'routes missing from the document',
    ).toEqual([]);
  });

  it('gives each operation its body and answers from the zod contracts, and says who may call', async () => {
    const doc = await document();
    const assign = doc.paths['/api/admin/leads/assign'].post as unknown as {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
      responses: Record<string, unknown>;
      tags: string[];
      security: unknown[];
    };
    expect(assign.requestBody.content['application/json'].schema.required).toEqual([
      'leadId',
      'userId',
    ]);
    expect(Object.keys(assign.responses)).toContain('200');
    expect(assign.tags).toEqual(['Admin']);
    expect(assign.security).toEqual([{ session: [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'session',
      'stripeSignature',
      'twilioSignature',
    ]);
    expect(doc.paths['/api/health'].get.tags).toEqual(['Public']);
    // a recording needs a session; Twilio's callbacks are signed instead (docs/domain.md, Follow-up messages and calls)
    expect(doc.paths['/api/recordings/{id}'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/telephony/sms/inbound'].post.tags).toEqual(['Twilio callbacks']);
    expect(doc.paths['/api/telephony/sms/inbound'].post.security).toEqual([
      { twilioSignature: [] },
    ]);
    // no credential at all is said too: an empty list
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
  });

  it("describes the intake's every answer, with an example lead, for an integrator", async () => {
    const doc = (await document()) as unknown as {
      servers: { url: string }[];
      paths: Record<string, Record<string, IntakeOperation>>;
    };
    const intake = doc.paths['/api/v1/leads']?.post as IntakeOperation;
    expect(intake.summary).toBe('Post a lead (lead vendors)');
    expect(Object.keys(intake.responses).sort()).toEqual([
      '200',
      '201',
      '401',
      '413',
      '422',
      '429',
    ]);
    for (const answer of Object.values(intake.responses))
      expect(answer.description).not.toBe('Default Response');
    expect(intake.requestBody.content['application/json'].example).toMatchObject({
      state: 'TX',
      category: 'MEDICARE',
    });
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:3000', description: 'This portal' }]);
  });

  it("passes Redocly's recommended lint rules without an error or a warning", async () => {
    const doc = await document();
    const file = join(mkdtempSync(join(tmpdir(), 'lf-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly');
    const run = spawnSync(bin, ['lint', file, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    });
    const report = JSON.parse(run.stdout) as {
      problems: {
        ruleId: string;
        severity: string;
        message: string;
        location: { pointer: string }[];
      }[];
    };
    const problems = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`,
    );
    expect(problems).toEqual([]);
  }, 90_000);
});

interface IntakeOperation {
  summary: string;
  responses: Record<string, { description: string }>;
  requestBody: { content: { 'application/json': { example: Record<string, unknown> } } };
}

describe('GET /api/docs', () => {
  it('serves a readable reference from this server that loads the document', async () => {
    const bare = await ctx.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe(`${DOCS_PREFIX}/`);
    const page = await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger-ui');
    // every script and stylesheet it names is served here (the CSP allows only 'self')
    const assets = [...page.body.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      const res = await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/${asset}` });
      expect(res.statusCode, asset).toBe(200);
    }
  });
});
