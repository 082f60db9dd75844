/**
 * The assignment engine (docs/domain.md, Assignment): one run for every trigger. A run is one
 * transaction holding an advisory lock, so runs serialize across processes and the quotas it
 * reads cannot be used by another run before it writes:
 *   read (agents, quota used today, candidate lead groups) -> classes -> solve -> write.
 * A SCHEDULE run carries the key 'daily:<business date>' under a unique constraint: a second
 * process (or a restart) asking for the same date finds it taken and does nothing.
 */

import type { AssignmentRun } from '../../../shared/contracts/admin';
import type { AssignmentTrigger, LeadCategory } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import { businessDate as businessDateOf } from '../../lib/business-time';
import { engineRunSeconds, leadsAssigned } from '../../lib/metrics';
import { assignLeadsOfRun, type WriteOutcome } from '../leads/lead-life.service';
import {
  finishRun,
  insertFailedRun,
  insertRun,
  lockRuns,
  prepareLeadReads,
  readActiveAgents,
  readLeadGroups,
} from './assignment.repository';
import { type AgentProfile, eligibleAgents } from './eligibility';
import { buildClasses } from './lead-classes';
import { agencyAssignedOnDate, assignedOnDate } from './quota.repository';
import { assignedThisWeekAndMonth, periodCapped } from './quota.service';
import { nextTurn, statementQueue } from './run-pipeline';
import { RunClock, type RunStep, type RunTimings } from './run-timing';
import { solveAssignment } from './solver';
import { leadCount } from './solver-graph';

export interface RunOptions {
  trigger: AssignmentTrigger;
  /** the bus the run emits `leadsAssigned` on, once, in its transaction (events/handlers.ts) */
  events: LeadEvents;
  /** The run's clock (tests pick dates with it); the business date is taken from it. */
  now?: Date;
  /** Filled with the milliseconds of each step (the benchmark reports them). */
  timings?: RunTimings;
  /**
   * false: no `leadsAssigned` (no notifications, no deliveries). Only the
   * assignment benchmark uses it, to measure what delivery adds to a run; every real run delivers.
   */
  deliver?: boolean;
}

export type EngineConfig = Pick<AppConfig, 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS'>;

/** The run record, plus how many agents received leads in it. */
export type RunResult = AssignmentRun & { agentsAssigned: number };

export function scheduleKeyOf(businessDate: string): string {
  return `daily:${businessDate}`;
}

/**
 * Runs the engine once and returns its record. A SCHEDULE run whose business date already has
 * its run (made by this or another process) returns null and changes nothing. A failed run is
 * recorded with its error (its work rolled back) and returned, error set; it holds no schedule
 * key, so the next start retries a failed scheduled run.
 */
export async function runAssignment(
  db: Db,
  config: EngineConfig,
  options: RunOptions,
): Promise<RunResult | null> {
  const run = await runAssignmentOnce(db, config, options);
  // GET /metrics: the run's time and the leads it gave out, by trigger
  if (run) {
    engineRunSeconds.observe({ trigger: options.trigger }, run.durationMs / 1000);
    if (run.assigned > 0) leadsAssigned.inc({ trigger: options.trigger }, run.assigned);
  }
  return run;
}

async function runAssignmentOnce(
  db: Db,
  config: EngineConfig,
  options: RunOptions,
): Promise<RunResult | null> {
  const now = options.now ?? new Date();
  const businessDate = businessDateOf(config.BUSINESS_TZ, now);
  const scheduleKey = options.trigger === 'SCHEDULE' ? scheduleKeyOf(businessDate) : null;
  const clock = new RunClock(options.timings);
  const step = (name: RunStep) => clock.step(name);
  const figures = { eligibleAgents: 0, candidateLeads: 0, assigned: 0 };
  try {
    return await db.transaction(async (tx) => {
      await lockRuns(tx);
      step('lock');
      clock.startRun();
      const runId = await insertRun(tx, { trigger: options.trigger, businessDate, scheduleKey });
      if (runId === null) return null;

      const rows = await readActiveAgents(tx);
      const used = await assignedOnDate(tx, businessDate);
      const agencyUsed = await agencyAssignedOnDate(tx, businessDate);
      // the week's and month's leads of the agents with such a cap only
      const period = await assignedThisWeekAndMonth(tx, businessDate, periodCapped(rows));
      const agents = eligibleAgents(
        rows,
        used,
        { now, businessDate, windows: config.ENROLLMENT_WINDOWS },
        agencyUsed,
        period,
      );
      figures.eligibleAgents = agents.length;
      // Categories never share an agent (an agent takes leads of its package's category only),
      // so each is solved and written on its own, and both sides work at once: the database
      // aggregates the next categories' pools while this process solves the first, and writes
      // one category while the next is solved (run-pipeline). An agency whose daily cap spans
      // members of several categories joins them into one solve (its cap is shared).
      const solves = solveGroups(categoriesSmallestFirst(agents));
      const { enqueue, settled } = statementQueue();
      const written = { assigned: 0, agents: 0 };
      try {
        const prepared = enqueue(() => prepareLeadReads(tx));
        const reads = new Map(
          solves.flatMap(([cs]) => cs).map((c) => [c, enqueue(() => readLeadGroups(tx, c))]),
        );
        await prepared; // its own error, rather than the aborted transaction's after it
        const writes: Promise<WriteOutcome>[] = [];
        for (const [categoryList, categoryAgents] of solves) {
          const groups: Awaited<ReturnType<typeof readLeadGroups>> = [];
          for (const c of categoryList) groups.push(...((await reads.get(c)) ?? []));
          figures.candidateLeads += groups.reduce((sum, g) => sum + leadCount(g.leads), 0);
          step('read');
          await nextTurn(); // the connection's next statement starts before this process computes
          const classes = buildClasses(categoryAgents, groups);
          step('classes');
          await nextTurn();
          const { byAgent } = solveAssignment(categoryAgents, classes);
          step('solve');
          const leadIds: number[] = [];
          const agentIds: number[] = [];
          for (const [agentId, ids] of byAgent) {
            for (const id of ids) {
              leadIds.push(id);
              agentIds.push(agentId);
            }
          }
          const at = { id: runId, businessDate, at: now };
          writes.push(enqueue(() => assignLeadsOfRun(tx, at, leadIds, agentIds)));
        }
        for (const outcome of await Promise.all(writes)) {
          written.assigned += outcome.assigned;
          written.agents += outcome.agents;
        }
        figures.assigned = written.assigned;
        step('write');
        // one leadsAssigned for the whole run, in this transaction (docs/domain.md, Delivery of assigned leads)
        if (written.assigned > 0 && options.deliver !== false) {
          await options.events.emit(tx, 'leadsAssigned', { runId });
        }
        step('deliver');
      } catch (err) {
        // nothing of this run may reach the connection after its transaction has ended
        await settled();
        throw err;
      }
      const run = await finishRun(tx, runId, {
        ...figures,
        durationMs: clock.elapsed(),
        error: null,
      });
      return { ...run, agentsAssigned: written.agents };
    });
  } catch (err) {
    const error = rootMessage(err);
    const run = await insertFailedRun(
      db,
      { trigger: options.trigger, businessDate },
      {
        ...figures,
        assigned: 0,
        durationMs: clock.elapsed(),
        error: error.slice(0, 1000) || 'failed',
      },
    );
    return { ...run, agentsAssigned: 0 };
  }
}

/**
 * The agents grouped by their package's category, smallest category first (by the leads it can
 * take today): while this process solves the first category the database only has the other
 * reads to do, so a small first category keeps that idle wait short; after it, each write
 * overlaps the next, larger solve (the order Johnson's rule gives a two-stage pipeline whose
 * second stage is the longer one).
 */
function categoriesSmallestFirst(agents: AgentProfile[]): [LeadCategory, AgentProfile[]][] {
  const byCategory = new Map<LeadCategory, AgentProfile[]>();
  for (const agent of agents) {
    if (agent.category === null) continue;
    const list = byCategory.get(agent.category);
    if (list) list.push(agent);
    else byCategory.set(agent.category, [agent]);
  }
  const remaining = (list: AgentProfile[]) =>
    list.reduce(
      (sum, a) =>
        sum +
        Math.max(0, Math.min(a.quota - a.assignedToday, a.periodRoom ?? Number.POSITIVE_INFINITY)),
      0,
    );
  return [...byCategory].sort((a, b) => remaining(a[1]) - remaining(b[1]));
}

/**
 * The solves of a run: each category alone, except categories that share an agency with a daily
 * cap (its members in both), which are solved together, in the order of their first category.
 */
function solveGroups(
  categories: [LeadCategory, AgentProfile[]][],
): [LeadCategory[], AgentProfile[]][] {
  const groupOf = new Map<LeadCategory, number>(categories.map(([c], i) => [c, i]));
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r];
    return r;
  };
  const parent = categories.map((_, i) => i);
  const firstOfAgency = new Map<number, number>();
  for (const [c, list] of categories) {
    for (const a of list) {
      if (a.agencyId === null || a.agencyRoom === null) continue;
      const i = groupOf.get(c) as number;
      const first = firstOfAgency.get(a.agencyId);
      if (first === undefined) firstOfAgency.set(a.agencyId, i);
      else parent[root(i)] = root(first);
    }
  }
  const out = new Map<number, [LeadCategory[], AgentProfile[]]>();
  for (const [i, [c, list]] of categories.entries()) {
    const r = root(i);
    const entry = out.get(r) ?? [[], []];
    entry[0].push(c);
    entry[1].push(...list);
    out.set(r, entry);
  }
  return [...out.values()];
}

/** The database's own words: drizzle wraps a failed query (with its SQL) around them. */
function rootMessage(err: unknown): string {
  let current = err;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
