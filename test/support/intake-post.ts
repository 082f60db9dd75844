/**
 * The intake as a vendor uses it (POST /api/v1/leads with a source's key), for tests that need
 * leads arriving one by one rather than imported.
 */
import { uniqueEmail, uniquePhone } from './lead-contact';
import { loginAdmin, type TestContext } from './test-app';

let seq = 0;

/** A new active source with one API key. */
export async function newSourceKey(ctx: TestContext): Promise<{ sourceId: number; key: string }> {
  const admin = await loginAdmin(ctx);
  const source = (
    await admin.client.post('/api/admin/sources', {
      name: `Intake source ${process.pid}-${++seq}`,
      costPerLeadCents: 1,
    })
  ).json();
  const key = (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key;
  return { sourceId: source.id as number, key: key as string };
}

/** Posts a MEDICARE lead from Austin, TX, with a fresh phone and email unless `over` sets them. */
export function postIntakeLead(ctx: TestContext, key: string, over: Record<string, unknown> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/leads',
    headers: { authorization: `Bearer ${key}` },
    payload: {
      firstName: 'Ann',
      lastName: 'Lee',
      phone: uniquePhone(),
      email: uniqueEmail('ann'),
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      age: 67,
      category: 'MEDICARE',
      ...over,
    },
  });
}
