/**
 * `npm run demo`'s data comes from the real engine: every lead a demo agent holds fits that
 * agent's package and preferences, no day exceeds a quota, and only active subscribers hold
 * leads (issue 13 item 12: agent1, a Medicare FL/TX agent, held ACA leads from other states).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { seedDemo } from '../src/server/modules/demo/seed-demo';
import { setupTestApp } from './support/test-app';

describe('demo data', () => {
  const ctx = setupTestApp();

  it('is handed out by the engine: every held lead fits its agent, within quota', async () => {
    const db = ctx.database.db;
    const lines: string[] = [];
    expect(
      await seedDemo(db, ctx.app.config, ctx.app.leadPorts.events, (line) => lines.push(line)),
    ).toBe(true);
    expect(lines[0]).toMatch(
      /^Demo data: 5 packages, 6 agents, 420 leads over 14 days, \d+ assigned/,
    );

    const misfits = await queryRows<{ id: number; reason: string }>(
      db,
      sql`select l.id, case
            when s.status is distinct from 'ACTIVE' then 'no active subscription'
            when l.category <> p.category then 'category'
            when cardinality(pr.states) > 0 and not l.state = any(pr.states) then 'state'
            when pr.age_min is not null and l.age < pr.age_min then 'age'
            when pr.age_max is not null and l.age > pr.age_max then 'age'
            else null end as reason
          from leads l
          left join subscriptions s on s.user_id = l.agent_id
          left join packages p on p.id = s.package_id
          left join preferences pr on pr.user_id = l.agent_id
          where l.agent_id is not null`,
    );
    expect(misfits.length).toBeGreaterThan(50);
    expect(misfits.filter((m) => m.reason !== null)).toEqual([]);

    const overQuota = await queryRows<{ agent: number; day: string; n: number }>(
      db,
      sql`select l.agent_id as agent, l.assigned_on::text as day, count(*)::int as n
          from leads l join subscriptions s on s.user_id = l.agent_id
          join packages p on p.id = s.package_id
          group by l.agent_id, l.assigned_on, p.leads_per_day
          having count(*) > p.leads_per_day`,
    );
    expect(overQuota).toEqual([]);

    // agent1 (Medicare, FL and TX) holds Medicare leads of FL and TX only
    const [agent1] = await queryRows<{ categories: string[]; states: string[]; n: number }>(
      db,
      sql`select array_agg(distinct l.category::text) as categories,
                 array_agg(distinct l.state) as states, count(*)::int as n
          from leads l join users u on u.id = l.agent_id
          where u.email = 'agent1@demo.leadflow.local'`,
    );
    expect(agent1.n).toBeGreaterThan(0);
    expect(agent1.categories).toEqual(['MEDICARE']);
    expect(agent1.states.every((s) => s === 'FL' || s === 'TX')).toBe(true);

    // every assignment was made by a recorded run, and the runs are the days of the demo
    const [runs] = await queryRows<{ runs: number; unrecorded: number }>(
      db,
      sql`select (select count(*)::int from assignment_runs where error is null) as runs,
                 (select count(*)::int from leads
                   where agent_id is not null and assignment_run_id is null) as unrecorded`,
    );
    expect(runs).toEqual({ runs: 14, unrecorded: 0 });

    // a second start keeps the data as it is
    expect(await seedDemo(db, ctx.app.config, ctx.app.leadPorts.events, () => {})).toBe(false);
  });
});
