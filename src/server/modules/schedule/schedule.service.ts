/**
 * The agent's schedule and caps (docs/domain.md, Schedule and caps): when and how many leads the
 * agent takes. The fit rule (modules/fit) reads both tables; this module writes them.
 */
import type { Caps, ScheduleBody, ScheduleState } from '../../../shared/contracts/schedule';
import type { Db } from '../../db/client';
import { AppError, type FieldProblem } from '../../lib/app-error';
import {
  activeLeadsPerDay,
  findCaps,
  findSchedule,
  NO_CAPS,
  saveCaps,
  saveSchedule,
} from './schedule.repository';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The IANA zones this runtime knows (the database's list holds them too), and UTC. */
let zones: Set<string> | null = null;
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return zones.has(name);
}

function refuse(problems: FieldProblem[]): never {
  throw new AppError('BAD_REQUEST', problems[0].message, {}, problems);
}

export async function scheduleOf(db: Db, agentId: number): Promise<ScheduleState> {
  return (await findSchedule(db, agentId)) ?? { timeZone: null, days: null };
}

/** Saves the schedule: a known IANA zone, each day's start before its end. */
export async function putSchedule(
  db: Db,
  agentId: number,
  body: ScheduleBody,
): Promise<ScheduleState> {
  const problems: FieldProblem[] = [];
  if (!isTimeZone(body.timeZone))
    problems.push({ field: 'timeZone', message: 'Pick a time zone such as America/New_York' });
  for (const day of WEEKDAYS) {
    const hours = body.days[day];
    if (hours && hours.start >= hours.end)
      problems.push({ field: `days.${day}.end`, message: 'The end must be after the start' });
  }
  if (problems.length > 0) refuse(problems);
  await saveSchedule(db, agentId, body);
  return scheduleOf(db, agentId);
}

export async function capsOf(db: Db, agentId: number): Promise<Caps> {
  return (await findCaps(db, agentId)) ?? NO_CAPS;
}

/**
 * Saves the caps. The daily cap may not exceed the leads per day of the agent's ACTIVE package
 * (without one there is nothing to compare with). monthlyBudgetCents is stored only: it bounds a
 * month's pay-per-lead charges once pay per lead exists.
 */
export async function putCaps(db: Db, agentId: number, caps: Caps): Promise<Caps> {
  if (caps.daily !== null) {
    const perDay = await activeLeadsPerDay(db, agentId);
    if (perDay !== null && caps.daily > perDay)
      refuse([
        { field: 'daily', message: `The daily cap can be at most your package's ${perDay} a day` },
      ]);
  }
  await saveCaps(db, agentId, caps);
  return capsOf(db, agentId);
}
