import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertLeads } from './support/agent-fixtures';
import { registeredRoutes as registered } from './support/route-log';
import {
  CALLERS,
  type Caller,
  createFixtures,
  type Fixtures,
  ROUTES,
  send,
  tableChecksums,
} from './support/route-table';
import { setupTestApp } from './support/test-app';

vi.mock('fastify', async (importOriginal) =>
  (await import('./support/route-log')).fastifyWithRouteLog(importOriginal),
);

const ctx = setupTestApp();
let fx: Fixtures;
let requests = 0;

beforeAll(async () => {
  fx = await createFixtures(ctx);
});

afterAll(() => {
  console.log(
    `authorization matrix: ${ROUTES.length} routes x ${CALLERS.length} callers, ${requests} requests made`,
  );
});

describe('route inventory', () => {
  it('lists every route the server registers, and only those', () => {
    const served = new Set(
      registered.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`),
    );
    const listed = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(served.size).toBeGreaterThan(20);
    expect(
      [...served].filter((r) => !listed.has(r)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      [...listed].filter((r) => !served.has(r)),
      'table rows with no route',
    ).toEqual([]);
    expect(listed.size, 'a route is listed twice').toBe(ROUTES.length);
  });
});

describe('authorization matrix', () => {
  for (const route of ROUTES) {
    it(`${route.method} ${route.path}: ${CALLERS.map((c) => `${c} ${route.expect[c]}`).join(', ')}`, async () => {
      for (const caller of CALLERS) {
        const expected = route.expect[caller];
        const spec = await route.request(fx, caller);
        const before = await tableChecksums(ctx);
        const res = await send(fx, caller, route.method, spec);
        requests++;
        expect(res.statusCode, `${caller}: ${res.body}`).toBe(expected);
        if (expected >= 400) {
          expect(res.json(), caller).toEqual({ message: expect.any(String) });
          expect(await tableChecksums(ctx), `${caller}'s refused call changed data`).toEqual(
            before,
          );
        }
      }
    });
  }

  it('refuses by role before validating: refused callers get 401/403 even with input the schema rejects', async () => {
    let checked = 0;
    for (const route of ROUTES) {
      if (!route.invalid) continue;
      const spec = route.invalid(fx);
      for (const caller of CALLERS) {
        const expected = route.expect[caller];
        const res = await send(fx, caller, route.method, spec);
        requests++;
        checked++;
        const want = expected === 401 || expected === 403 ? expected : (route.invalidStatus ?? 400);
        expect(res.statusCode, `${route.method} ${route.path} as ${caller}: ${res.body}`).toBe(
          want,
        );
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('objects of another agent', () => {
  it("agent B's lead list never holds agent A's leads, and A's lead is untouched by B's attempts", async () => {
    const leadId = await fx.leadOfAgent();
    await insertLeads(ctx.database.db, [{ agentId: fx.otherAgent.id, assignedOn: '2020-01-01' }]);
    for (const status of ['CONTACTED', 'CONVERTED', 'INVALID']) {
      const res = await send(fx, 'otherAgent', 'POST', {
        url: `/api/agent/leads/${leadId}/status`,
        body: { status },
      });
      requests++;
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Lead not found' });
    }
    const missing = await send(fx, 'otherAgent', 'POST', {
      url: '/api/agent/leads/2147483000/status',
      body: { status: 'CONTACTED' },
    });
    requests++;
    expect(missing.statusCode).toBe(404);
    expect(missing.body, "another's lead and a missing lead answer alike").toBe(
      JSON.stringify({ message: 'Lead not found' }),
    );

    for (const caller of ['agent', 'otherAgent'] as Caller[]) {
      const res = await send(fx, caller, 'GET', { url: '/api/agent/leads' });
      requests++;
      expect(res.statusCode).toBe(200);
      const owners = new Set(res.json().map((l: { agentId: number }) => l.agentId));
      expect([...owners]).toEqual([fx[caller as 'agent' | 'otherAgent'].id]);
    }
    const mine = await send(fx, 'agent', 'GET', { url: '/api/agent/leads' });
    requests++;
    const lead = mine.json().find((l: { id: number }) => l.id === leadId);
    expect(lead.status).toBe('ASSIGNED');
  });
});
