import { ADMIN_ONLY, type Caller, type Fixtures, type RouteCase } from './route-case';

/**
 * The audit log (docs/domain.md, Audit log): read only. Admins read every event; agent A owns an
 * agency and reads its events, B (in none) gets 404, an admin 403. No route changes a row.
 */
async function ready(fx: Fixtures, caller: Caller): Promise<void> {
  if (caller === 'otherAgent') await fx.withoutAgency(fx.otherAgent.id);
  await fx.agencyMember();
}

export const auditRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/admin/audit',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/audit?action=login&from=2026-01-01&page=1&pageSize=10' }),
    invalid: () => ({ url: '/api/admin/audit?from=yesterday' }),
  },
  {
    method: 'GET',
    path: '/api/agency/audit',
    expect: { anonymous: 401, agent: 200, otherAgent: 404, admin: 403 },
    request: async (fx, caller) => {
      await ready(fx, caller);
      return { url: '/api/agency/audit?page=1&pageSize=10' };
    },
    invalid: () => ({ url: '/api/agency/audit?pageSize=0' }),
  },
];
