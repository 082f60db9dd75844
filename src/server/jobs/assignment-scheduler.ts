/**
 * The daily assignment run (ASSIGNMENT_SCHEDULE, a cron in BUSINESS_TZ). Every app process may
 * start this scheduler: the engine keys a SCHEDULE run by its business date under a unique
 * constraint, so each date runs once across processes and restarts. On start, a run missed while
 * the server was down (the schedule's time has passed today and today has no run) runs at once.
 */
import { Cron } from 'croner';
import type { AppConfig } from '../config/env';
import type { Db } from '../db/client';
import type { LeadEvents } from '../events/lead-events';
import { businessDate } from '../lib/business-time';
import { type RunResult, runAssignment } from '../modules/assignment/run-assignment.service';

export type SchedulerConfig = Pick<
  AppConfig,
  'ASSIGNMENT_SCHEDULE' | 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS'
>;

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface AssignmentScheduler {
  /** The start-up catch-up: its run, or null when there was nothing to catch up. */
  readonly catchUp: Promise<RunResult | null>;
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  db: Db;
  config: SchedulerConfig;
  /** the app's bus: each run emits leadsAssigned on it */
  events: LeadEvents;
  log: Logger;
  /** The clock at start (tests); the schedule itself always fires on real time. */
  now?: Date;
}

/** Whether the schedule had a slot earlier today (business date) than `now`. */
export function slotPassedToday(cron: Cron, timeZone: string, now: Date): boolean {
  const [previous] = cron.previousRuns(1, now);
  return previous !== undefined && businessDate(timeZone, previous) === businessDate(timeZone, now);
}

export function startAssignmentScheduler(options: SchedulerOptions): AssignmentScheduler {
  const { db, config, events, log } = options;
  const inFlight = new Set<Promise<unknown>>();

  const runScheduled = (at: Date, reason: string): Promise<RunResult | null> => {
    const task = runAssignment(db, config, { trigger: 'SCHEDULE', now: at, events }).then(
      (run) => {
        if (!run) log.info({ reason }, 'scheduled assignment run: already made for today');
        else if (run.error) log.error({ reason, run }, 'scheduled assignment run failed');
        else log.info({ reason, run }, 'scheduled assignment run done');
        return run;
      },
      (err: unknown) => {
        log.error({ reason, err }, 'scheduled assignment run could not be recorded');
        return null;
      },
    );
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    return task;
  };

  const cron = new Cron(
    config.ASSIGNMENT_SCHEDULE,
    { timezone: config.BUSINESS_TZ, protect: true },
    async () => {
      await runScheduled(new Date(), 'schedule');
    },
  );

  const now = options.now ?? new Date();
  const catchUp = slotPassedToday(cron, config.BUSINESS_TZ, now)
    ? runScheduled(now, 'catch-up at start')
    : Promise.resolve(null);

  return {
    catchUp,
    async stop() {
      cron.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}
