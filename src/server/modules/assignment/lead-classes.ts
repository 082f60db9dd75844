/**
 * Lead classes: leads that no preference of the receiving agents can tell apart go to the solver
 * as one class (docs/domain.md, Assignment: a run is set-based around an in-memory solver). Pure.
 *
 * The database hands over groups of identical (category, state, city, age). Within a
 * category, a group's state matters only if some agent chose states, its city only if some agent
 * named it, and its age only up to the agents' age bounds (ages between two bounds behave alike).
 * Those coarse classes get their fits, and classes with the same fits are merged: the solver's
 * graph has one node per distinct set of agents, however many leads there are.
 */
import type { LeadCategory } from '../../../shared/domain';
import { normalizeCity } from '../fit/fit-rule.service';
import type { AgentProfile } from './eligibility';
import {
  type LeadClass,
  type LeadSpan,
  leadCount,
  type SolverLead,
  sortNewestFirst,
} from './solver-graph';

/** Leads of one (category, state, city as stored, age), in any order. */
export interface LeadGroup {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  leads: SolverLead[] | LeadSpan;
}

interface CategoryIndex {
  statesMatter: boolean;
  byState: Map<string, AgentProfile[]>;
  anyState: AgentProfile[];
  namedCities: Set<string>;
  /** Sorted ages where some agent's range starts (ageMin) or has just ended (ageMax + 1). */
  ageBreaks: number[];
}

/** Agents that can still take a lead, indexed per category for fit look-ups. */
function indexAgents(agents: AgentProfile[]): Map<LeadCategory, CategoryIndex> {
  const index = new Map<LeadCategory, CategoryIndex>();
  const breaks = new Map<LeadCategory, Set<number>>();
  for (const agent of agents) {
    if (agent.category === null || agent.quota - agent.assignedToday <= 0) continue;
    if (agent.agencyRoom !== null && agent.agencyRoom <= 0) continue; // the agency's cap is reached
    if (agent.periodRoom !== null && agent.periodRoom <= 0) continue; // its weekly or monthly cap
    let entry = index.get(agent.category);
    if (!entry) {
      entry = {
        statesMatter: false,
        byState: new Map(),
        anyState: [],
        namedCities: new Set(),
        ageBreaks: [],
      };
      index.set(agent.category, entry);
      breaks.set(agent.category, new Set());
    }
    if (agent.states.length === 0) entry.anyState.push(agent);
    else {
      entry.statesMatter = true;
      for (const state of new Set(agent.states)) {
        const list = entry.byState.get(state);
        if (list) list.push(agent);
        else entry.byState.set(state, [agent]);
      }
    }
    for (const city of agent.cities) entry.namedCities.add(city);
    const set = breaks.get(agent.category)!;
    if (agent.ageMin !== null) set.add(agent.ageMin);
    if (agent.ageMax !== null) set.add(agent.ageMax + 1);
  }
  for (const [category, entry] of index) {
    entry.ageBreaks = [...breaks.get(category)!].sort((a, b) => a - b);
  }
  return index;
}

/** How many breaks are <= age: ages with the same bucket are on the same side of every bound. */
export function ageBucket(breaks: number[], age: number): number {
  let lo = 0;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (breaks[mid] <= age) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Agents of one (category, state, age bucket) that fit its ages, sorted by id. */
interface Slice {
  /** fit whatever the city */
  anyCity: number[];
  /** named this city (among others) */
  byCity: Map<string, number[]>;
}

function sliceOf(entry: CategoryIndex, state: string, age: number): Slice {
  const candidates = entry.statesMatter
    ? [...(entry.byState.get(state) ?? []), ...entry.anyState]
    : entry.anyState;
  candidates.sort((a, b) => a.id - b.id);
  const slice: Slice = { anyCity: [], byCity: new Map() };
  for (const agent of candidates) {
    if (agent.ageMin !== null && age < agent.ageMin) continue;
    if (agent.ageMax !== null && age > agent.ageMax) continue;
    if (agent.cities.length === 0) {
      slice.anyCity.push(agent.id);
      continue;
    }
    for (const city of agent.cities) {
      const list = slice.byCity.get(city);
      if (list) list.push(agent.id);
      else slice.byCity.set(city, [agent.id]);
    }
  }
  return slice;
}

/** The agents (ids, ascending) of a slice that a lead in this city fits. */
function fitsIn(slice: Slice, city: string | null): number[] {
  const named = city === null ? undefined : slice.byCity.get(city);
  if (!named) return slice.anyCity;
  const a = slice.anyCity;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < named.length) {
    if (j >= named.length || (i < a.length && a[i] < named[j])) out.push(a[i++]);
    else out.push(named[j++]);
  }
  return out;
}

/** A cheap key for a list of ids; equal keys are confirmed element by element. */
function fitsKey(fits: number[]): string {
  let h1 = 0x811c9dc5;
  let h2 = fits.length;
  for (const id of fits) {
    h1 = Math.imul(h1 ^ id, 0x01000193);
    h2 = (Math.imul(h2, 31) + id) | 0;
  }
  return `${h1 >>> 0}.${h2 >>> 0}.${fits.length}`;
}

function sameIds(a: number[], b: number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface Coarse {
  entry: CategoryIndex;
  slice: Slice;
  city: string | null;
  groups: LeadGroup[];
}

/**
 * The solver's classes for these agents and groups. Leads that fit no agent with quota left
 * are left out; every class's leads are newest first and its fits sorted by agent id. The groups
 * are not modified.
 */
export function buildClasses(agents: AgentProfile[], groups: LeadGroup[]): LeadClass[] {
  const index = indexAgents(agents);
  const slices = new Map<string, Slice>();
  const coarse = new Map<string, Coarse>();
  for (const group of groups) {
    const entry = index.get(group.category);
    if (!entry || leadCount(group.leads) === 0) continue;
    const city = normalizeCity(group.city);
    const namedCity = entry.namedCities.has(city) ? city : null;
    const state = entry.statesMatter ? group.state : '';
    const sliceKey = `${group.category}\u0001${state}\u0001${ageBucket(entry.ageBreaks, group.age)}`;
    const key = `${sliceKey}\u0001${namedCity ?? '\u0000'}`;
    const found = coarse.get(key);
    if (found) {
      found.groups.push(group);
      continue;
    }
    let slice = slices.get(sliceKey);
    if (!slice) {
      slice = sliceOf(entry, group.state, group.age);
      slices.set(sliceKey, slice);
    }
    coarse.set(key, { entry, slice, city: namedCity, groups: [group] });
  }

  const merged = new Map<string, { fits: number[]; groups: LeadGroup[] }[]>();
  for (const c of coarse.values()) {
    const fits = fitsIn(c.slice, c.city);
    if (fits.length === 0) continue;
    const key = fitsKey(fits);
    const bucket = merged.get(key);
    const same = bucket?.find((m) => sameIds(m.fits, fits));
    if (same) same.groups.push(...c.groups);
    else if (bucket) bucket.push({ fits, groups: c.groups });
    else merged.set(key, [{ fits, groups: c.groups }]);
  }

  // Every class's leads in two shared columns, each class a span of them sorted newest first.
  let total = 0;
  for (const bucket of merged.values()) {
    for (const { groups: parts } of bucket) for (const g of parts) total += leadCount(g.leads);
  }
  const id = new Float64Array(total);
  const createdAt = new Float64Array(total);
  const classes: LeadClass[] = [];
  let end = 0;
  for (const bucket of merged.values()) {
    for (const { fits, groups: parts } of bucket) {
      const start = end;
      for (const { leads } of parts) end = copyNewestFirst(leads, id, createdAt, end);
      sortNewestFirst(createdAt, id, start, end);
      classes.push({ leads: { id, createdAt, start, end }, fits });
    }
  }
  return classes;
}

/**
 * Copies a group's leads to the columns at `at`, reversed when they come oldest first (the
 * database hands a group's leads in table order, which is mostly arrival order): the class is
 * then a few runs already in order, which the sort merges. Returns the next free position.
 */
function copyNewestFirst(
  leads: SolverLead[] | LeadSpan,
  id: Float64Array,
  createdAt: Float64Array,
  at: number,
): number {
  if (Array.isArray(leads)) {
    for (let i = 0; i < leads.length; i++) {
      id[at + i] = leads[i].id;
      createdAt[at + i] = leads[i].createdAt;
    }
    return at + leads.length;
  }
  const { start, end } = leads;
  const first = start;
  const last = end - 1;
  const ascending =
    last > first &&
    (leads.createdAt[first] < leads.createdAt[last] ||
      (leads.createdAt[first] === leads.createdAt[last] && leads.id[first] < leads.id[last]));
  if (!ascending) {
    id.set(leads.id.subarray(start, end), at);
    createdAt.set(leads.createdAt.subarray(start, end), at);
    return at + end - start;
  }
  let p = at;
  for (let i = last; i >= first; i--) {
    id[p] = leads.id[i];
    createdAt[p++] = leads.createdAt[i];
  }
  return p;
}
