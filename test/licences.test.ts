/**
 * Licensed states (docs/domain.md, Licensed states), on both databases: the admin's licences,
 * their effect on the run and the intake, and the preferences' answer that explains them.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/server/db/schema';
import { createAgent, createLeads } from './support/assignment-fixtures';
import { availabilityFixtures } from './support/availability-fixtures';
import { loginAdmin, setupTestApp } from './support/test-app';

const ctx = setupTestApp({ ASSIGN_ON_IMPORT: false });
const { db, run, subscribedAgent, agentOf, intakeKey, postLead } = availabilityFixtures(ctx);

describe('licensed states', () => {
  it('validates the states and answers 404 for an unknown agent', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    const bad = await admin.client.put(`/api/admin/agents/${agent.id}/licenses`, {
      states: ['TX', 'ZZ'],
    });
    expect(bad.statusCode).toBe(400);
    const none = await admin.client.put('/api/admin/agents/999999/licenses', { states: [] });
    expect(none.statusCode).toBe(404);
    const ok = await admin.client.put(`/api/admin/agents/${agent.id}/licenses`, {
      states: ['TX', 'AL', 'TX'],
    });
    expect(ok.json().licensedStates).toEqual(['AL', 'TX']);
  });

  it('the run gives an agent only leads of the licensed states, whatever the preferences say', async () => {
    // A prefers TX and FL but is licensed in FL only; B prefers nothing, licensed in TX
    const a = await createAgent(db(), { quota: 5, states: ['TX', 'FL'] });
    const b = await createAgent(db(), { quota: 5 });
    const c = await createAgent(db(), { quota: 5, states: ['GA'] });
    await db()
      .update(users)
      .set({ licensedStates: ['FL'] })
      .where(eq(users.id, a));
    await db()
      .update(users)
      .set({ licensedStates: ['TX'] })
      .where(eq(users.id, b));
    await db()
      .update(users)
      .set({ licensedStates: ['OH'] })
      .where(eq(users.id, c));
    const [tx, fl, ga, oh] = await createLeads(db(), [
      { state: 'TX' },
      { state: 'FL' },
      { state: 'GA' },
      { state: 'OH' },
    ]);
    const result = await run();
    expect(result).toMatchObject({ assigned: 2 });
    expect(await agentOf(tx)).toBe(b);
    expect(await agentOf(fl)).toBe(a);
    // C prefers GA but is licensed in OH only: no overlap, fits nothing
    expect(await agentOf(ga)).toBeNull();
    expect(await agentOf(oh)).toBeNull();
  });

  it("the intake's instant pick respects the licence", async () => {
    const admin = await loginAdmin(ctx);
    const key = await intakeKey();
    const agent = await subscribedAgent();
    await admin.client.put(`/api/admin/agents/${agent.id}/licenses`, { states: ['FL'] });
    const texan = await postLead(key, { state: 'TX' });
    expect(texan.json().status).toBe('NEW');
    const floridian = await postLead(key, { state: 'FL', city: 'Miami' });
    expect(floridian.json().status).toBe('ASSIGNED');
    expect(await agentOf(floridian.json().id)).toBe(agent.id);
  });

  it('flags preferred states outside the licence in the preferences answer', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await subscribedAgent();
    await agent.client.put('/api/agent/preferences', {
      states: ['TX', 'FL', 'GA'],
      cities: [],
      ageMin: null,
      ageMax: null,
      categories: [],
    });
    expect((await agent.client.get('/api/agent/preferences')).json()).toMatchObject({
      licensedStates: [],
      unlicensedStates: [],
    });
    await admin.client.put(`/api/admin/agents/${agent.id}/licenses`, { states: ['FL'] });
    expect((await agent.client.get('/api/agent/preferences')).json()).toMatchObject({
      states: ['FL', 'GA', 'TX'],
      licensedStates: ['FL'],
      unlicensedStates: ['GA', 'TX'],
    });
  });
});
