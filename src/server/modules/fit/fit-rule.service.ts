/**
 * The fit rule: may this agent receive this lead (docs/domain.md, "The fit rule"). This file is
 * its one TypeScript definition; fit-rule-sql.service.ts is its one SQL rendering, and
 * test/fit-rule.test.ts proves on random instances that the two, the engine, the intake's pick,
 * the explanation and the preview all agree. Adding a condition means editing this file and
 * its twin (docs/ARCHITECTURE.md, "Adding a condition to the fit rule").
 *
 * The conditions run in MISFIT_REASONS order; the first that fails is the reason the agent does
 * not fit. Agent conditions need no lead (an agent failing one gets no lead at all), lead
 * conditions compare the agent's preferences and licence with the lead, and the capacity
 * condition (quota left today) applies only to a lead still waiting for an agent.
 */
import type { MisfitReason } from '../../../shared/contracts/explanation';
import type { LeadCategory } from '../../../shared/domain';
import type { EnrollmentWindows } from '../../config/env';
import { inYearlyWindow, monthDayOf, monthStartOf } from '../../lib/business-time';

/** What the rule reads of an agent (role AGENT), as the repositories read it. */
export interface FitAgent {
  id: number;
  /** an admin disabled the account (docs/domain.md, Offboarding) */
  disabled: boolean;
  /** an admin approved the account (docs/domain.md, Accounts): a PENDING or REFUSED agent gets no lead */
  approved: boolean;
  /** the category of the package of the agent's ACTIVE subscription; null: none is ACTIVE */
  category: LeadCategory | null;
  /**
   * the package's leads per day (0 without an ACTIVE subscription), lowered to the agent's own
   * daily cap when that is smaller (docs/domain.md, Schedule and caps)
   */
  quota: number;
  enrollmentOnly: boolean;
  /** ISO instants; paused while pausedAt is set and pausedUntil is unset or still ahead */
  pausedAt: string | null;
  pausedUntil: string | null;
  /** the agent's preferences: [] and null mean "any" */
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
  categories: string[];
  /** states the agent is licensed in; []: not restricted */
  licensedStates: string[];
  /** the agency the agent belongs to (docs/domain.md, Agencies); null: none */
  agencyId: number | null;
  /** the agency is SUSPENDED: its members get no lead */
  agencySuspended: boolean;
  /** the agency's leads a business day across its members; null: no cap (or no agency) */
  agencyCap: number | null;
  /** the hours the agent takes leads in; null: any time */
  schedule: AgentSchedule | null;
  /** the agent's own caps on leads a business week (from Monday) and month; null: none */
  weeklyCap: number | null;
  monthlyCap: number | null;
  /** the agent pays each lead from a wallet (a PER_LEAD package); null: a subscription */
  perLead: PerLead | null;
}

/**
 * The agent's fields and no others, always in this order: every agent of a copy then has one
 * shape, so code that asks the rule of thousands of agents a lead reads their fields through one
 * inline cache (a database row's object, with whatever else it holds, does not promise that).
 */
export function fitAgentFields(a: FitAgent): FitAgent {
  return {
    id: a.id,
    disabled: a.disabled,
    approved: a.approved,
    category: a.category,
    quota: a.quota,
    enrollmentOnly: a.enrollmentOnly,
    pausedAt: a.pausedAt,
    pausedUntil: a.pausedUntil,
    states: a.states,
    cities: a.cities,
    ageMin: a.ageMin,
    ageMax: a.ageMax,
    categories: a.categories,
    licensedStates: a.licensedStates,
    agencyId: a.agencyId,
    agencySuspended: a.agencySuspended,
    agencyCap: a.agencyCap,
    schedule: a.schedule,
    weeklyCap: a.weeklyCap,
    monthlyCap: a.monthlyCap,
    perLead: a.perLead,
  };
}

/** What pays for a PER_LEAD agent's leads (docs/domain.md, The wallet). */
export interface PerLead {
  /** the most one lead of the agent's package can cost (its price list's and perLeadCents' most) */
  highestCents: number;
  balanceCents: number;
  /** the agent's monthly budget; null: none */
  budgetCents: number | null;
  /** the month (its first day) spentCents counts, and the leads' prices charged in it */
  spentMonth: string | null;
  spentCents: number;
}

/**
 * How many more leads the wallet and the monthly budget cover, each at the highest price a lead
 * can cost (so whatever lead comes, it is covered); null: no such bound (a subscription, no budget).
 */
export function perLeadRooms(
  perLead: PerLead | null,
  businessDate: string,
): { walletRoom: number | null; budgetRoom: number | null } {
  if (perLead === null) return { walletRoom: null, budgetRoom: null };
  const price = Math.max(1, perLead.highestCents);
  const spent = perLead.spentMonth === monthStartOf(businessDate) ? perLead.spentCents : 0;
  return {
    walletRoom: Math.max(0, Math.floor(perLead.balanceCents / price)),
    budgetRoom:
      perLead.budgetCents === null
        ? null
        : Math.max(0, Math.floor((perLead.budgetCents - spent) / price)),
  };
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** An agent's schedule: per weekday, HH:MM (24 h) from start (included) to end (excluded), or none. */
export interface AgentSchedule {
  timeZone: string;
  days: Record<Weekday, { start: string; end: string } | null>;
}

/** When the rule is asked: the clock (pauses), the business date and the enrollment windows. */
export interface FitContext {
  now: Date;
  businessDate: string;
  windows: EnrollmentWindows;
}

/** What the rule reads of a lead; `city` normalized by normalizeCity. */
export interface FitLead {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
}

/** An agent made ready for the lead conditions: its cities normalized once. */
export interface LeadReadyAgent extends FitAgent {
  normalizedCities: string[];
}

/** An agent with what needs no lead decided once: its agent-level reason, cities normalized. */
export interface FitProfile extends LeadReadyAgent {
  /** the first failing agent condition; null: the agent may receive leads today */
  agentReason: MisfitReason | null;
  /** leads received today by any trigger */
  assignedToday: number;
  /** the agency's leads today (leads assigned through it, any member, any trigger); 0 without one */
  agencyAssignedToday: number;
  /** leads received this business week (from Monday) and month, today's included */
  assignedThisWeek: number;
  assignedThisMonth: number;
  /** leads the wallet covers at the highest price; null: not a PER_LEAD agent */
  walletRoom: number | null;
  /** leads the rest of the month's budget covers at the highest price; null: no budget */
  budgetRoom: number | null;
}

/** Leads an agent received this business week and month (today's included). */
export interface PeriodCounts {
  week: number;
  month: number;
}

/** Lowercase, trim, collapse inner whitespace: how cities are compared. */
export function normalizeCity(city: string): string {
  return city.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Whether an enrollment-only package may receive leads on this business date. A category with
 * no window configured (FINAL_EXPENSE by default) has no enrollment period to wait for.
 */
export function enrollmentOpen(
  category: LeadCategory,
  enrollmentOnly: boolean,
  businessDate: string,
  windows: EnrollmentWindows,
): boolean {
  if (!enrollmentOnly) return true;
  const window = windows[category];
  if (!window) return true;
  return inYearlyWindow(monthDayOf(businessDate), window.start, window.end);
}

/** Paused at `now`: from pausedAt until pausedUntil, or until the agent resumes. */
export function pausedAt(agent: Pick<FitAgent, 'pausedAt' | 'pausedUntil'>, now: Date): boolean {
  if (agent.pausedAt === null) return false;
  return agent.pausedUntil === null || new Date(agent.pausedUntil).getTime() > now.getTime();
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();

/** The clocks of the current minute, by time zone: many agents are asked about one moment. */
const minuteClocks = { minute: Number.NaN, byZone: new Map<string, LocalClock>() };

interface LocalClock {
  day: Weekday;
  time: string;
}

/**
 * The weekday and HH:MM (24 h) of an instant in a time zone (every zone's offset is a whole
 * number of minutes, so one minute has one answer per zone).
 */
export function localClock(timeZone: string, at: Date): LocalClock {
  const minute = Math.floor(at.getTime() / 60_000);
  if (minute !== minuteClocks.minute) {
    minuteClocks.minute = minute;
    minuteClocks.byZone.clear();
  }
  let clock = minuteClocks.byZone.get(timeZone);
  if (!clock) {
    clock = formatClock(timeZone, at);
    minuteClocks.byZone.set(timeZone, clock);
  }
  return clock;
}

function formatClock(timeZone: string, at: Date): LocalClock {
  let formatter = clockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    clockFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: get('weekday').toLowerCase() as Weekday, time: `${get('hour')}:${get('minute')}` };
}

/** Within the schedule at `now`: no schedule, or today's hours (agent's zone) hold `now`. */
export function inSchedule(schedule: AgentSchedule | null, now: Date): boolean {
  if (schedule === null) return true;
  const { day, time } = localClock(schedule.timeZone, now);
  const hours = schedule.days[day];
  return hours != null && time >= hours.start && time < hours.end;
}

type AgentCheck = (a: FitAgent, ctx: FitContext) => boolean;
type LeadCheck = (a: LeadReadyAgent, lead: FitLead) => boolean;

/** Conditions on the agent alone, in order: each holds for an agent that may get leads. */
export const AGENT_CONDITIONS = {
  DISABLED: (a) => !a.disabled,
  NOT_APPROVED: (a) => a.approved,
  NOT_ACTIVE: (a) => a.category !== null,
  PAUSED: (a, ctx) => !pausedAt(a, ctx.now),
  OUTSIDE_SCHEDULE: (a, ctx) => inSchedule(a.schedule, ctx.now),
  ENROLLMENT_WINDOW: (a, ctx) =>
    a.category === null ||
    enrollmentOpen(a.category, a.enrollmentOnly, ctx.businessDate, ctx.windows),
  AGENCY_SUSPENDED: (a) => !a.agencySuspended,
} satisfies Partial<Record<MisfitReason, AgentCheck>>;

/**
 * The agent fields each agent condition reads: agents equal in them pass or fail it together at
 * any moment (the explanation asks one of each kind).
 */
export const AGENT_CONDITION_FIELDS: Record<keyof typeof AGENT_CONDITIONS, (keyof FitAgent)[]> = {
  DISABLED: ['disabled'],
  NOT_APPROVED: ['approved'],
  NOT_ACTIVE: ['category'],
  PAUSED: ['pausedAt', 'pausedUntil'],
  OUTSIDE_SCHEDULE: ['schedule'],
  ENROLLMENT_WINDOW: ['category', 'enrollmentOnly'],
  AGENCY_SUSPENDED: ['agencySuspended'],
};

/** Conditions between the agent and the lead, in order. */
export const LEAD_CONDITIONS = {
  CATEGORY: (a, lead) =>
    a.category === lead.category &&
    (a.categories.length === 0 || a.categories.includes(lead.category)),
  LICENCE: (a, lead) => a.licensedStates.length === 0 || a.licensedStates.includes(lead.state),
  STATE: (a, lead) => a.states.length === 0 || a.states.includes(lead.state),
  CITY: (a, lead) => a.normalizedCities.length === 0 || a.normalizedCities.includes(lead.city),
  AGE: (a, lead) =>
    (a.ageMin === null || lead.age >= a.ageMin) && (a.ageMax === null || lead.age <= a.ageMax),
} satisfies Partial<Record<MisfitReason, LeadCheck>>;

/** The lead fields each lead condition reads (the explanation keeps its narrowings by them). */
export const LEAD_CONDITION_READS: Record<LeadReason, (keyof FitLead)[]> = {
  CATEGORY: ['category'],
  LICENCE: ['state'],
  STATE: ['state'],
  CITY: ['city'],
  AGE: ['age'],
};

/**
 * The agent fields each lead condition reads: agents equal in them pass or fail it together (the
 * explanation asks one of each kind).
 */
export const LEAD_CONDITION_AGENT_FIELDS: Record<LeadReason, (keyof LeadReadyAgent)[]> = {
  CATEGORY: ['category', 'categories'],
  LICENCE: ['licensedStates'],
  STATE: ['states'],
  CITY: ['normalizedCities'],
  AGE: ['ageMin', 'ageMax'],
};

/**
 * The capacity conditions, in order: a lead still waiting needs quota left today (the agent's own
 * daily cap lowers the quota), room under the agent's weekly and monthly caps, for an agent who
 * pays per lead a monthly budget and a balance that cover the highest price a lead can cost, and
 * room left under the agent's agency's daily cap (the sum of its members' leads of the day).
 */
export const CAPACITY_CONDITIONS = {
  QUOTA_FULL: (a: FitProfile) => a.assignedToday < a.quota,
  WEEKLY_CAP: (a: FitProfile) => a.weeklyCap === null || a.assignedThisWeek < a.weeklyCap,
  MONTHLY_CAP: (a: FitProfile) => a.monthlyCap === null || a.assignedThisMonth < a.monthlyCap,
  BUDGET_SPENT: (a: FitProfile) => a.budgetRoom === null || a.budgetRoom > 0,
  BALANCE_TOO_LOW: (a: FitProfile) => a.walletRoom === null || a.walletRoom > 0,
  AGENCY_CAP_FULL: (a: FitProfile) => a.agencyCap === null || a.agencyAssignedToday < a.agencyCap,
} satisfies Partial<Record<MisfitReason, (a: FitProfile) => boolean>>;

export type CapacityReason = keyof typeof CAPACITY_CONDITIONS;
const CAPACITY_CHECKS = Object.entries(CAPACITY_CONDITIONS) as [
  CapacityReason,
  (a: FitProfile) => boolean,
][];

/** The first capacity condition the agent fails today; null when it has room for one more lead. */
export function firstCapacityMisfit(a: FitProfile): CapacityReason | null {
  for (const [reason, holds] of CAPACITY_CHECKS) if (!holds(a)) return reason;
  return null;
}

export type AgentReason = keyof typeof AGENT_CONDITIONS;
export type LeadReason = keyof typeof LEAD_CONDITIONS;

/** The conditions as ordered lists, made once (asking the rule is on hot paths). */
const AGENT_CHECKS = Object.entries(AGENT_CONDITIONS) as [AgentReason, AgentCheck][];
const LEAD_CHECKS = Object.entries(LEAD_CONDITIONS) as [LeadReason, LeadCheck][];

/** The first agent condition the agent fails at this moment; null: it may receive leads. */
export function firstAgentMisfit(agent: FitAgent, ctx: FitContext): AgentReason | null {
  for (const [reason, holds] of AGENT_CHECKS) if (!holds(agent, ctx)) return reason;
  return null;
}

/** The agent, ready for the lead conditions (no clock needed). */
export function leadReady<A extends FitAgent>(agent: A): A & LeadReadyAgent {
  return {
    ...agent,
    normalizedCities: [...new Set(agent.cities.map(normalizeCity).filter((c) => c !== ''))],
  };
}

/** The agent, ready to be checked against many leads. */
export function fitProfile(
  agent: FitAgent,
  ctx: FitContext,
  assignedToday = 0,
  agencyAssignedToday = 0,
  period: PeriodCounts = { week: 0, month: 0 },
): FitProfile {
  return {
    ...leadReady(agent),
    agentReason: firstAgentMisfit(agent, ctx),
    assignedToday,
    agencyAssignedToday: agent.agencyId === null ? 0 : agencyAssignedToday,
    assignedThisWeek: period.week,
    assignedThisMonth: period.month,
    ...perLeadRooms(agent.perLead, ctx.businessDate),
  };
}

/** The first lead condition the agent fails for this lead; null when every one holds. */
export function firstLeadMisfit(a: LeadReadyAgent, lead: FitLead): LeadReason | null {
  for (const [reason, holds] of LEAD_CHECKS) {
    if (!holds(a, lead)) return reason;
  }
  return null;
}

/**
 * The first reason the agent does not fit the lead, in MISFIT_REASONS order; null when it fits.
 * `withCapacity`: a lead still waiting also needs quota (and agency cap) left today; a lead already
 * given does not.
 */
export function firstMisfit(
  a: FitProfile,
  lead: FitLead,
  withCapacity: boolean,
): MisfitReason | null {
  if (a.agentReason) return a.agentReason;
  const reason = firstLeadMisfit(a, lead);
  if (reason) return reason;
  return withCapacity ? firstCapacityMisfit(a) : null;
}

/**
 * Every condition the agent fails for the lead, in MISFIT_REASONS order, capacity aside (the
 * admin who assigns by hand may go over a quota): what a manual assignment warns of.
 */
export function everyMisfit(agent: FitAgent, ctx: FitContext, lead: FitLead): MisfitReason[] {
  const profile = fitProfile(agent, ctx);
  const out: MisfitReason[] = [];
  for (const [reason, holds] of AGENT_CHECKS) {
    if (!holds(agent, ctx)) out.push(reason);
  }
  for (const [reason, holds] of LEAD_CHECKS) {
    if (!holds(profile, lead)) out.push(reason);
  }
  return out;
}

/** One lead field's test: whether a value passes every lead condition that reads that field. */
export type FieldTests = {
  [F in keyof FitLead]: (value: FitLead[F]) => boolean;
};

/**
 * The lead conditions for one agent and one lead category, field by field: each lead condition
 * reads one field (LEAD_CONDITION_READS), so a lead fits when each of its fields passes, and a
 * caller with many leads can test each distinct value once (the preview does). A condition that
 * reads two fields cannot be split so: this throws, and its callers must ask firstLeadMisfit.
 */
export function fieldTests(profile: LeadReadyAgent, category: FitLead['category']): FieldTests {
  const base: FitLead = { category, state: '', city: '', age: 0 };
  const byField = new Map<keyof FitLead, LeadCheck[]>();
  for (const [reason, holds] of LEAD_CHECKS) {
    const fields = LEAD_CONDITION_READS[reason];
    if (fields.length !== 1) throw new Error(`${reason} reads ${fields.length} lead fields`);
    const list = byField.get(fields[0]) ?? [];
    list.push(holds);
    byField.set(fields[0], list);
  }
  const test =
    <F extends keyof FitLead>(field: F) =>
    (value: FitLead[F]) =>
      (byField.get(field) ?? []).every((holds) => holds(profile, { ...base, [field]: value }));
  return {
    category: test('category'),
    state: test('state'),
    city: test('city'),
    age: test('age'),
  };
}

/** A lead as the rule compares it: its city normalized. */
export function fitLead(lead: {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
}): FitLead {
  return {
    category: lead.category,
    state: lead.state,
    city: normalizeCity(lead.city),
    age: lead.age,
  };
}
