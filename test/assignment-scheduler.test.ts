import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { assignmentRuns } from '../src/server/db/schema';
import {
  type SchedulerConfig,
  startAssignmentScheduler,
} from '../src/server/jobs/assignment-scheduler';
import { businessDate } from '../src/server/lib/business-time';
import {
  createAgent,
  createLeads,
  leadStates,
  resetAssignmentData,
} from './support/assignment-fixtures';
import { setupTestApp } from './support/test-app';

const ctx = setupTestApp();
const db = () => ctx.database.db;
const quiet = { info: () => {}, error: () => {} };
const config = (schedule: string): SchedulerConfig => ({
  ...ctx.app.config,
  ASSIGNMENT_SCHEDULE: schedule,
});

beforeEach(async () => {
  await resetAssignmentData(db());
});

describe('the daily schedule', () => {
  it('catches up at start a run missed today, once, and not before the scheduled time', async () => {
    const agent = await createAgent(db(), { quota: 2 });
    await createLeads(db(), [{}, {}, {}]);
    const start = (now: Date) =>
      startAssignmentScheduler({
        db: db(),
        config: config('0 8 * * *'),
        events: ctx.app.leadPorts.events,
        log: quiet,
        now,
      });

    // 07:00 in New York on June 16: today's 08:00 has not come, yesterday's is not today's
    const early = start(new Date('2026-06-16T11:00:00Z'));
    expect(await early.catchUp).toBeNull();
    await early.stop();
    expect(await db().select().from(assignmentRuns)).toHaveLength(0);

    // 09:30 on June 15: the 08:00 run was missed, so it runs now
    const late = start(new Date('2026-06-15T13:30:00Z'));
    expect(await late.catchUp).toMatchObject({
      trigger: 'SCHEDULE',
      businessDate: '2026-06-15',
      assigned: 2,
    });
    await late.stop();
    // a restart the same day finds the run made
    const restart = start(new Date('2026-06-15T20:00:00Z'));
    expect(await restart.catchUp).toBeNull();
    await restart.stop();

    const runs = await db().select().from(assignmentRuns);
    expect(runs.map((r) => r.scheduleKey)).toEqual(['daily:2026-06-15']);
    const states = [...(await leadStates(db())).values()];
    expect(states.filter((l) => l.agentId === agent)).toHaveLength(2);
  });

  it('fires on the cron in BUSINESS_TZ and runs once per business date however often it fires', async () => {
    await createAgent(db(), { quota: 1 });
    await createLeads(db(), [{}, {}, {}]);
    // every second: the start-up catch-up and each tick all ask for today's run
    const scheduler = startAssignmentScheduler({
      db: db(),
      config: config('* * * * * *'),
      events: ctx.app.leadPorts.events,
      log: quiet,
    });
    await scheduler.catchUp;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await scheduler.stop();
    const today = businessDate(ctx.app.config.BUSINESS_TZ);
    const runs = await db()
      .select()
      .from(assignmentRuns)
      .where(eq(assignmentRuns.trigger, 'SCHEDULE'));
    expect(runs).toMatchObject([{ scheduleKey: `daily:${today}`, assigned: 1 }]);
  });
});
