/**
 * What the pause and licence tests share (docs/domain.md, Pause, Licensed states): a clean
 * assignment state before each test, a subscribed agent, a run, who holds a lead, and a lead
 * posted to the intake with a fresh source key.
 */
import { eq } from 'drizzle-orm';
import { beforeEach } from 'vitest';
import { leads } from '../../src/server/db/schema';
import { runAssignment } from '../../src/server/modules/assignment/run-assignment.service';
import { createPackage, subscribe } from './admin-fixtures';
import { resetAssignmentData } from './assignment-fixtures';
import { uniqueEmail, uniquePhone } from './lead-contact';
import { loginAdmin, registerAgent, type TestContext } from './test-app';

export function availabilityFixtures(ctx: TestContext) {
  const db = () => ctx.database.db;
  const run = (now = new Date()) =>
    runAssignment(db(), ctx.app.config, {
      trigger: 'MANUAL',
      now,
      events: ctx.app.leadPorts.events,
    });

  beforeEach(async () => {
    await resetAssignmentData(db());
  });

  async function subscribedAgent(quota = 5) {
    const agent = await registerAgent(ctx.app, 'Pausing Agent');
    const pkg = await createPackage(ctx, { leadsPerDay: quota });
    await subscribe(ctx, agent.id, pkg.id);
    return agent;
  }

  async function agentOf(leadId: number): Promise<number | null> {
    const [row] = await db()
      .select({ agentId: leads.agentId })
      .from(leads)
      .where(eq(leads.id, leadId));
    return row.agentId;
  }

  let seq = 0;
  async function intakeKey() {
    const admin = await loginAdmin(ctx);
    const source = (
      await admin.client.post('/api/admin/sources', {
        name: `Availability ${process.pid}-${++seq}`,
        costPerLeadCents: 100,
      })
    ).json();
    return (await admin.client.post(`/api/admin/sources/${source.id}/keys`)).json().key as string;
  }

  function postLead(key: string, over: Record<string, unknown> = {}) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/v1/leads',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        firstName: 'Ida',
        lastName: 'Ray',
        phone: uniquePhone(),
        email: uniqueEmail('ida'),
        city: 'Austin',
        state: 'TX',
        age: 67,
        category: 'MEDICARE',
        externalId: `avail-${process.pid}-${++seq}`,
        ...over,
      },
    });
  }

  return { db, run, subscribedAgent, agentOf, intakeKey, postLead };
}
