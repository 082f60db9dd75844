/**
 * Reclaim (docs/domain.md, Agencies): an agency lead its member did not work within the agency's
 * minutes of the lead's calling window goes to another fitting member, at most twice, never after
 * first contact; the first member's quota no longer counts it; the member, the new member and the
 * owner are told. The job is durable: a server stopped between the assignment and the due time
 * leaves it to the next one.
 */

import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app';
import type { AppConfig } from '../src/server/config/env';
import { queryRows } from '../src/server/db/client';
import { subscriptions } from '../src/server/db/schema';
import type { JobQueue } from '../src/server/jobs/job-queue';
import { assignedOnDate } from '../src/server/modules/assignment/quota.repository';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';
import { reclaimableOfLeadsSql } from '../src/server/modules/reclaim/reclaim.repository';
import { processReclaim, type ReclaimPorts } from '../src/server/modules/reclaim/reclaim.service';
import { createAgency, leadOwners, resetAgencies } from './support/agency-fixtures';
import {
  createAgent,
  createLeads,
  createPackage,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { openStream, type Stream } from './support/event-stream';
import { SmtpReceiver } from './support/smtp-receiver';
import { registerAgent, setupTestApp, testConfig } from './support/test-app';
import { createTestDatabase } from './support/test-db';
import { waitFor } from './support/wait-for';

const config = testConfig();
const minutes = (n: number) => n * 60_000;

describe('reclaim: the job, on a moving clock', () => {
  // no queue in this app: the test runs the job itself, at the moments it chooses
  const ctx = setupTestApp({}, { deliveryQueue: { enabled: false } });
  const db = () => ctx.database.db;
  const queued: { startAfter?: Date; data: unknown }[] = [];
  const queue: JobQueue = {
    running: true,
    async enqueue(_tx, _name, jobs) {
      queued.push(...jobs);
    },
    async hasJob() {
      return false;
    },
  };
  const ports = (now: Date): ReclaimPorts => ({
    config,
    queue,
    events: ctx.app.leadPorts.events,
    email: null,
    now: () => now,
  });

  beforeEach(async () => {
    await resetAssignmentData(db());
    await resetAgencies(db());
    queued.length = 0;
  });

  /** One TX lead in Chicago's time, given to `to` by a run at `at` (the others paused). */
  async function leadFor(to: number, others: number[], at: Date) {
    const [lead] = await createLeads(db(), [{ state: 'TX', city: 'Austin' }]);
    await db().execute(sql`update leads set time_zone = 'America/Chicago' where id = ${lead}`);
    for (const id of others)
      await db().execute(sql`update users set paused_at = now() where id = ${id}`);
    await runAssignment(db(), config, {
      trigger: 'MANUAL',
      events: ctx.app.leadPorts.events,
      now: at,
    });
    for (const id of others)
      await db().execute(sql`update users set paused_at = null where id = ${id}`);
    expect((await leadOwners(db())).get(lead)?.agentId).toBe(to);
    const [job] = await queryRows<{ assignedAt: string }>(db(), reclaimableOfLeadsSql([lead]));
    return { lead, job: { leadId: lead, assignedAt: job.assignedAt } };
  }

  async function team(n: number, reclaimAfterMinutes = 30) {
    const owner = await createAgent(db(), { status: null, name: 'Owner' });
    const members: number[] = [];
    for (let i = 0; i < n; i++) members.push(await createAgent(db(), { quota: 5 }));
    const agency = await createAgency(db(), { reclaimAfterMinutes, ownerId: owner, members });
    return { owner, members, agency };
  }

  it('takes the lead back after the minutes, gives it to another member, credits the quota, tells all three', async () => {
    const { owner, members } = await team(2);
    const [m1, m2] = members;
    const t0 = new Date('2026-06-15T15:00:00Z'); // 10:00 in Chicago
    const { lead, job } = await leadFor(m1, [m2], t0);

    const early = await processReclaim(db(), ports(new Date(t0.getTime() + minutes(20))), job);
    expect(early).toEqual({ done: 'NOT_DUE', dueAt: new Date(t0.getTime() + minutes(30)) });
    expect(queued.map((j) => j.startAfter)).toEqual([new Date(t0.getTime() + minutes(30))]);
    expect((await leadOwners(db())).get(lead)?.agentId).toBe(m1);

    const due = await processReclaim(db(), ports(new Date(t0.getTime() + minutes(31))), job);
    expect(due).toEqual({ done: 'RECLAIMED', leadId: lead, fromAgentId: m1, toAgentId: m2 });
    const [row] = await queryRows<{ agent: number; reclaims: number; status: string }>(
      db(),
      sql`select agent_id as agent, reclaims, status::text from leads where id = ${lead}`,
    );
    expect(row).toEqual({ agent: m2, reclaims: 1, status: 'ASSIGNED' });
    const history = await queryRows<{ kind: string; from: number | null; agent: number | null }>(
      db(),
      sql`select kind::text, from_agent_id as from, agent_id as agent from lead_history
           where lead_id = ${lead} order by id`,
    );
    expect(history.slice(-2)).toEqual([
      { kind: 'RECLAIMED', from: m1, agent: null },
      { kind: 'AUTO_ASSIGNED', from: null, agent: m2 },
    ]);
    // the first member's quota no longer counts it; the new member's does
    const used = await assignedOnDate(db(), '2026-06-15');
    expect(used.get(m1) ?? 0).toBe(0);
    expect(used.get(m2)).toBe(1);
    // the three are told: the member and the owner in the bell, the new member as a new lead
    const told = await queryRows<{ user: number; kind: string }>(
      db(),
      sql`select user_id as user, kind from notifications
           where user_id in (${m1}, ${m2}, ${owner}) and kind <> 'lead.assigned' or
                 (user_id = ${m2} and lead_id = ${lead})
           order by id`,
    );
    expect(told).toEqual(
      expect.arrayContaining([
        { user: m1, kind: 'lead.reclaimed' },
        { user: owner, kind: 'lead.reclaimed' },
        { user: m2, kind: 'lead.assigned' },
      ]),
    );
    // the old job again: the lead has moved on, nothing happens
    expect(
      (await processReclaim(db(), ports(new Date(t0.getTime() + minutes(40))), job)).done,
    ).toBe('NOTHING');
  });

  it('members who pay per lead: the first gets the price back, the next member pays it', async () => {
    const { members } = await team(2);
    const [m1, m2] = members;
    // both on one pay-per-lead package ($15 a lead), each with $60 in the wallet
    const [pkg] = await queryRows<{ id: number }>(
      db(),
      sql`insert into packages (slug, name, category, price_monthly_cents, leads_per_day,
                                commission_pct, pricing, per_lead_cents)
          values ('reclaim-ppl', 'By the lead', 'MEDICARE', 0, 5, 0, 'PER_LEAD', 1500)
          returning id`,
    );
    for (const m of [m1, m2]) {
      await db().execute(sql`update subscriptions set package_id = ${pkg.id} where user_id = ${m}`);
      await db().execute(sql`insert into wallets (user_id, balance_cents) values (${m}, 6000)`);
    }
    const t0 = new Date('2026-06-15T15:00:00Z');
    const { lead, job } = await leadFor(m1, [m2], t0);
    const due = await processReclaim(db(), ports(new Date(t0.getTime() + minutes(31))), job);
    expect(due).toEqual({ done: 'RECLAIMED', leadId: lead, fromAgentId: m1, toAgentId: m2 });
    const ledger = await queryRows<{ user: number; kind: string; cents: number }>(
      db(),
      sql`select user_id as user, kind::text, amount_cents as cents from wallet_entries
           where lead_id = ${lead} order by id`,
    );
    expect(ledger).toEqual([
      { user: m1, kind: 'LEAD', cents: -1500 },
      { user: m1, kind: 'RECLAIM_CREDIT', cents: 1500 },
      { user: m2, kind: 'LEAD', cents: -1500 },
    ]);
    const balances = await queryRows<{ user: number; cents: number }>(
      db(),
      sql`select user_id as user, balance_cents as cents from wallets
           where user_id in (${m1}, ${m2}) order by user_id`,
    );
    expect(balances).toEqual([
      { user: m1, cents: 6000 },
      { user: m2, cents: 4500 },
    ]);
  });

  it('counts only minutes inside the calling window', async () => {
    const { members } = await team(2);
    const [m1, m2] = members;
    const t1 = new Date('2026-06-16T01:50:00Z'); // 20:50 in Chicago: 10 minutes before it closes
    const { lead, job } = await leadFor(m1, [m2], t1);
    // 40 minutes later on the clock, but only 10 of them in the window
    const night = await processReclaim(db(), ports(new Date(t1.getTime() + minutes(40))), job);
    expect(night).toEqual({ done: 'NOT_DUE', dueAt: new Date('2026-06-16T13:20:00Z') });
    expect((await leadOwners(db())).get(lead)?.agentId).toBe(m1);
    const morning = await processReclaim(db(), ports(new Date('2026-06-16T13:21:00Z')), job);
    expect(morning.done).toBe('RECLAIMED');
  });

  it('at most twice a lead, and never after first contact', async () => {
    const { members } = await team(3);
    const [m1, m2, m3] = members;
    const t0 = new Date('2026-06-15T15:00:00Z');
    const { lead, job } = await leadFor(m1, [m2, m3], t0);
    const at = (n: number) => new Date(t0.getTime() + minutes(n));
    const first = await processReclaim(db(), ports(at(31)), job);
    expect(first).toMatchObject({ done: 'RECLAIMED', toAgentId: m2 });
    const [second] = await queryRows<{ assignedAt: string }>(db(), reclaimableOfLeadsSql([lead]));
    const again = await processReclaim(db(), ports(at(62)), {
      leadId: lead,
      assignedAt: second.assignedAt,
    });
    expect(again).toMatchObject({ done: 'RECLAIMED', fromAgentId: m2 });
    const [third] = await queryRows<{ assignedAt: string }>(
      db(),
      sql`select to_char(assigned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "assignedAt"
            from leads where id = ${lead}`,
    );
    expect(await processReclaim(db(), ports(at(200)), { leadId: lead, ...third })).toEqual({
      done: 'NOTHING',
      why: 'reclaimed twice',
    });

    // a lead its member has contacted stays
    const other = await leadFor(m1, [m2, m3], at(300));
    await db().execute(
      sql`update leads set first_contact_at = ${at(301).toISOString()}::timestamptz where id = ${other.lead}`,
    );
    expect(await processReclaim(db(), ports(at(400)), other.job)).toEqual({
      done: 'NOTHING',
      why: 'worked',
    });
    // reclaim turned off since: nothing
    const third_ = await leadFor(m3, [m1, m2], at(500));
    await db().execute(sql`update agencies set reclaim_after_minutes = null`);
    expect((await processReclaim(db(), ports(at(600)), third_.job)).done).toBe('NOTHING');
  });

  it('no other member fits: the lead stays with its member', async () => {
    const owner = await createAgent(db(), { status: null });
    const m1 = await createAgent(db(), { quota: 5 });
    const m2 = await createAgent(db(), { quota: 5, states: ['FL'] });
    await createAgency(db(), { reclaimAfterMinutes: 30, ownerId: owner, members: [m1, m2] });
    const t0 = new Date('2026-06-15T15:00:00Z');
    const { lead, job } = await leadFor(m1, [m2], t0);
    const outcome = await processReclaim(db(), ports(new Date(t0.getTime() + minutes(45))), job);
    expect(outcome).toEqual({ done: 'NOTHING', why: 'no other member fits' });
    expect((await leadOwners(db())).get(lead)?.agentId).toBe(m1);
  });
});

/** A zone where it is now between 9 AM and 8 PM: the last minutes all lie in the window. */
function zoneInWindowNow(): string {
  const zones = [
    'America/Chicago',
    'America/New_York',
    'America/Los_Angeles',
    'Pacific/Honolulu',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/London',
    'Europe/Berlin',
    'Australia/Sydney',
    'America/Sao_Paulo',
    'Asia/Dubai',
    'Pacific/Auckland',
  ];
  for (const zone of zones) {
    const hour = Number(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(new Date()),
    );
    if (hour >= 9 && hour < 20) return zone;
  }
  throw new Error('no zone in its calling window now');
}

describe('reclaim: the three are told by email and on their open pages', () => {
  const smtp = new SmtpReceiver();
  const overrides: Partial<AppConfig> = {};
  beforeAll(async () => {
    overrides.SMTP_URL = await smtp.start();
  });
  afterAll(() => smtp.stop());
  // registered after the receiver's beforeAll, so the app reads its port from `overrides`
  const ctx = setupTestApp(overrides, { deliveryQueue: { pollingIntervalSeconds: 0.5 } });
  it('the first member and the owner get an email and their pages refresh; the new member gets the lead by email and live; another member nothing', {
    timeout: 60_000,
  }, async () => {
    const db = ctx.database.db;
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const [owner, first, next, bystander] = await Promise.all(
      ['Reclaim Owner', 'First Member', 'Next Member', 'Other Member'].map((name) =>
        registerAgent(ctx.app, name),
      ),
    );
    const packageId = await createPackage(db, { leadsPerDay: 5 });
    for (const m of [first, next]) {
      await db.insert(subscriptions).values({ userId: m.id, packageId, status: 'ACTIVE' });
    }
    // the other member has no package: no lead fits them
    await createAgency(db, {
      reclaimAfterMinutes: 5,
      ownerId: owner.id,
      members: [first.id, next.id, bystander.id],
    });
    const streams: Record<'owner' | 'first' | 'next' | 'bystander', Stream> = {
      owner: await openStream(port, owner.client.cookie),
      first: await openStream(port, first.client.cookie),
      next: await openStream(port, next.client.cookie),
      bystander: await openStream(port, bystander.client.cookie),
    };
    try {
      const [lead] = await createLeads(db, [{ state: 'TX', city: 'Austin', firstName: 'Rita' }]);
      await db.execute(
        sql`update leads set last_name = 'Reyes', time_zone = ${zoneInWindowNow()} where id = ${lead}`,
      );
      // the next member sits the run out: the first gets the lead, due 5 seconds from now
      await db.execute(sql`update users set paused_at = now() where id = ${next.id}`);
      await runAssignment(db, ctx.app.config, {
        trigger: 'MANUAL',
        events: ctx.app.leadPorts.events,
        now: new Date(Date.now() - minutes(5) + 5_000),
      });
      await db.execute(sql`update users set paused_at = null where id = ${next.id}`);
      expect((await leadOwners(db)).get(lead)?.agentId).toBe(first.id);

      await waitFor(
        'the lead to go to the next member',
        async () => (await leadOwners(db)).get(lead)?.agentId === next.id,
        30_000,
      );
      const mailTo = (email: string, subject: string) =>
        waitFor(`"${subject}" to ${email}`, async () =>
          smtp.inbox.find((m) => m.to.includes(email) && m.mail.subject === subject),
        );
      const toFirst = await mailTo(first.email, 'Lead reclaimed by your agency');
      expect(toFirst.mail.text).toContain('Hello First Member');
      expect(toFirst.mail.text).toContain(
        'Rita Reyes (Austin, TX) was not worked within 5 minutes of its calling hours and went to another member.',
      );
      const toOwner = await mailTo(owner.email, 'Lead reclaimed');
      expect(toOwner.mail.text).toContain('Hello Reclaim Owner');
      expect(toOwner.mail.text).toContain(
        'Rita Reyes (Austin, TX) was not worked within 5 minutes and was given to another member.',
      );
      const toNext = await mailTo(next.email, 'New lead: Rita Reyes (Austin, TX)');
      expect(toNext.mail.text).toContain('Austin, TX');

      // the new member's page shows the lead; the first member's and the owner's refresh
      const event = (who: keyof typeof streams, name: string) =>
        waitFor(`${name} on the ${who}'s page`, async () =>
          streams[who].events.find((e) => e.event === name),
        );
      expect(await event('first', 'resync')).toEqual({ event: 'resync', data: {} });
      expect(await event('owner', 'resync')).toEqual({ event: 'resync', data: {} });
      const assigned = await waitFor("the lead on the next member's page", async () =>
        streams.next.events.find(
          (e) => e.event === 'lead.assigned' && (e.data as { leadId: number }).leadId === lead,
        ),
      );
      expect(assigned.data).toMatchObject({ leadId: lead, name: 'Rita Reyes', state: 'TX' });
      // the first member's page got the lead at first, and never refreshed before the reclaim
      expect(streams.first.events.map((e) => e.event)).toEqual(['lead.assigned', 'resync']);
      expect(streams.owner.events.map((e) => e.event)).toEqual(['resync']);
      // the member the lead never concerned: nothing
      expect(streams.bystander.events).toEqual([]);
      expect(smtp.inbox.filter((m) => m.to.includes(bystander.email))).toEqual([]);
      // one email each of the reclaim's notices: the next member's new lead, and the first
      // member's first one
      expect(smtp.inbox.map((m) => `${m.to.join()} ${m.mail.subject}`).sort()).toEqual(
        [
          `${first.email} New lead: Rita Reyes (Austin, TX)`,
          `${first.email} Lead reclaimed by your agency`,
          `${owner.email} Lead reclaimed`,
          `${next.email} New lead: Rita Reyes (Austin, TX)`,
        ].sort(),
      );
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });
});

describe('reclaim: durable across a restart', () => {
  const apps: { close(): Promise<unknown> }[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await database?.close();
  });

  it('a server stopped after the assignment: the next one on the same database reclaims', {
    timeout: 60_000,
  }, async () => {
    database = await createTestDatabase();
    const db = database.db;
    const build = async () => {
      const app = await buildApp({
        config,
        database: database as NonNullable<typeof database>,
        serveSpa: false,
        deliveryQueue: { pollingIntervalSeconds: 0.5, sweepIntervalMs: 1_000 },
      });
      await app.ready();
      apps.push(app);
      return app;
    };
    const first = await build();
    const owner = await createAgent(db, { status: null });
    const m1 = await createAgent(db, { quota: 5 });
    const m2 = await createAgent(db, { quota: 5 });
    await createAgency(db, { reclaimAfterMinutes: 5, ownerId: owner, members: [m1, m2] });
    const [lead] = await createLeads(db, [{ state: 'TX' }]);
    await db.execute(sql`update leads set time_zone = ${zoneInWindowNow()} where id = ${lead}`);
    await db.execute(sql`update users set paused_at = now() where id = ${m2}`);
    // assigned 5 minutes ago less 4 seconds: due in 4 seconds
    const at = new Date(Date.now() - minutes(5) + 4_000);
    await runAssignment(db, config, { trigger: 'MANUAL', events: first.leadPorts.events, now: at });
    await db.execute(sql`update users set paused_at = null where id = ${m2}`);
    expect((await leadOwners(db)).get(lead)?.agentId).toBe(m1);
    const [{ jobs }] = await queryRows<{ jobs: number }>(
      db,
      sql`select count(*)::int as jobs from pgboss.job where name = 'agency-reclaim'`,
    );
    expect(jobs).toBe(1);
    await first.close(); // the server stops before the lead is due

    await new Promise((r) => setTimeout(r, 4_500));
    expect((await leadOwners(db)).get(lead)?.agentId).toBe(m1);
    await build(); // a new server on the same database
    const deadline = Date.now() + 30_000;
    let agent: number | null | undefined = m1;
    while (Date.now() < deadline) {
      agent = (await leadOwners(db)).get(lead)?.agentId;
      if (agent === m2) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(agent).toBe(m2);
  });
});
