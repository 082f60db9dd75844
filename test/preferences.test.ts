import { describe, expect, it } from 'vitest';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

const NONE = { states: [], cities: [], ageMin: null, ageMax: null, categories: [] };
/** The answer carries the licence beside the preferences (docs/domain.md, Licensed states; none recorded here). */
const NO_LICENCE = { licensedStates: [], unlicensedStates: [] };
const valid = {
  states: ['TX', 'FL'],
  cities: ['Miami', 'Dallas'],
  ageMin: 30,
  ageMax: 65,
  categories: ['MEDICARE'],
};

describe('GET and PUT /api/agent/preferences', () => {
  it('answers no preferences for an agent who never saved any', async () => {
    const agent = await registerAgent(ctx.app);
    const res = await agent.client.get('/api/agent/preferences');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...NONE, ...NO_LICENCE });
  });

  it('stores the preferences and answers what it stored, the same as a later GET', async () => {
    const agent = await registerAgent(ctx.app);
    const put = await agent.client.put('/api/agent/preferences', {
      states: ['TX', 'FL', 'TX'],
      cities: ['  Miami ', '', 'Fort   Worth', 'miami', '   '],
      ageMin: 30,
      ageMax: 65,
      categories: ['FINAL_EXPENSE', 'MEDICARE'],
    });
    expect(put.statusCode).toBe(200);
    const stored = {
      states: ['FL', 'TX'],
      cities: ['Miami', 'Fort Worth'],
      ageMin: 30,
      ageMax: 65,
      categories: ['MEDICARE', 'FINAL_EXPENSE'],
      ...NO_LICENCE,
    };
    expect(put.json()).toEqual(stored);
    expect((await agent.client.get('/api/agent/preferences')).json()).toEqual(stored);

    // saving again replaces everything, and empty/null means no restriction
    const cleared = await agent.client.put('/api/agent/preferences', {
      states: [],
      cities: [],
      ageMin: null,
      ageMax: 70,
      categories: [],
    });
    expect(cleared.json()).toEqual({ ...NONE, ...NO_LICENCE, ageMax: 70 });
    expect((await agent.client.get('/api/agent/preferences')).json()).toEqual({
      ...NONE,
      ...NO_LICENCE,
      ageMax: 70,
    });
  });

  it('accepts the bounds 18 and 120 and an equal min and max', async () => {
    const agent = await registerAgent(ctx.app);
    for (const [ageMin, ageMax] of [
      [18, 120],
      [40, 40],
    ]) {
      const res = await agent.client.put('/api/agent/preferences', { ...valid, ageMin, ageMax });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ ageMin, ageMax });
    }
  });

  it('refuses each broken rule with 400 and a message, keeping what was stored', async () => {
    const agent = await registerAgent(ctx.app);
    await agent.client.put('/api/agent/preferences', valid);
    // each answer names the field and says what is wrong in a sentence (no validator wording)
    const cases: [object, string, RegExp][] = [
      [{ states: ['TX', 'XX'] }, 'states.1', /^Unknown state code: XX$/],
      [{ states: ['tx'] }, 'states.0', /^Unknown state code: tx$/],
      [{ ageMin: 70, ageMax: 60 }, 'ageMin', /^Minimum age cannot be above maximum age$/],
      [{ ageMin: 17 }, 'ageMin', /^Age must be between 18 and 120$/],
      [{ ageMax: 121 }, 'ageMax', /^Age must be between 18 and 120$/],
      [{ ageMin: 30.5 }, 'ageMin', /^Age must be a whole number$/],
      [{ ageMin: '30' }, 'ageMin', /^Age must be a number$/],
      [
        { categories: ['LIFE'] },
        'categories.0',
        /^Categories must be one of: MEDICARE, ACA, FINAL_EXPENSE$/,
      ],
      [{ cities: ['x'.repeat(101)] }, 'cities.0', /^A city name is at most 100 characters$/],
      [{ states: 'TX' }, 'states', /^States must be a list$/],
    ];
    for (const [change, field, message] of cases) {
      const res = await agent.client.put('/api/agent/preferences', { ...valid, ...change });
      const what = JSON.stringify(change);
      expect(res.statusCode, what).toBe(400);
      const answer = res.json();
      expect(answer.errors, what).toEqual([{ field, message: expect.stringMatching(message) }]);
      expect(answer.message, what).toBe(`${answer.errors[0].message}.`);
    }
    const { ageMin, ...withoutMin } = valid;
    expect((await agent.client.put('/api/agent/preferences', withoutMin)).statusCode).toBe(400);
    expect((await agent.client.get('/api/agent/preferences')).json()).toEqual({
      ...valid,
      ...NO_LICENCE,
      states: ['FL', 'TX'],
    });
  });

  it("keeps each agent's preferences apart", async () => {
    const a = await registerAgent(ctx.app);
    const b = await registerAgent(ctx.app);
    await a.client.put('/api/agent/preferences', valid);
    expect((await b.client.get('/api/agent/preferences')).json()).toEqual({
      ...NONE,
      ...NO_LICENCE,
    });
  });

  it('answers 401 without a session and 403 to an admin', async () => {
    expect((await new Client(ctx.app).get('/api/agent/preferences')).statusCode).toBe(401);
    expect((await new Client(ctx.app).put('/api/agent/preferences', valid)).statusCode).toBe(401);
    const admin = await loginAdmin(ctx);
    expect((await admin.client.get('/api/agent/preferences')).statusCode).toBe(403);
    expect((await admin.client.put('/api/agent/preferences', valid)).statusCode).toBe(403);
  });
});
