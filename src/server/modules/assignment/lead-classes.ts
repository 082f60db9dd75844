/**
 * Lead classes: leads that no preference of the receiving agents can tell apart go to the solver
 * as one class (design.md section 2, rule 5). Pure.
 *
 * The database hands over groups of identical (category, state, city, age). Within a
 * category, a group's state matters only if some agent chose states, its city only if some agent
 * named it, and its age only up to the agents' age bounds (ages between two bounds behave alike).
 * Those coarse classes get their fits, and classes with the same fits are merged: the solver's
 * graph has one node per distinct set of agents, however many leads there are.
 */
import type { LeadCategory } from '../../../shared/domain';
import type { AgentProfile } from './eligibility';
import { normalizeCity } from './eligibility';
import type { LeadClass, SolverLead } from './solver';
import { isNewer } from './solver';

/** Leads of one (category, state, city as stored, age), newest first. */
export interface LeadGroup {
  category: LeadCategory;
  state: string;
  city: string;
  age: number;
  leads: SolverLead[];
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

/** Whether a lead with this state, normalized city (null: named by no agent) and age fits. */
export function agentFits(
  agent: AgentProfile,
  state: string,
  city: string | null,
  age: number,
): boolean {
  if (agent.states.length > 0 && !agent.states.includes(state)) return false;
  if (agent.cities.length > 0 && (city === null || !agent.cities.includes(city))) return false;
  if (agent.ageMin !== null && age < agent.ageMin) return false;
  if (agent.ageMax !== null && age > agent.ageMax) return false;
  return true;
}

function fitsOf(entry: CategoryIndex, state: string, city: string | null, age: number): number[] {
  const candidates = entry.statesMatter
    ? [...(entry.byState.get(state) ?? []), ...entry.anyState]
    : entry.anyState;
  const fits: number[] = [];
  for (const agent of candidates) if (agentFits(agent, state, city, age)) fits.push(agent.id);
  return fits.sort((a, b) => a - b);
}

function byNewest(a: SolverLead, b: SolverLead): number {
  return isNewer(a, b) ? -1 : isNewer(b, a) ? 1 : 0;
}

interface Coarse {
  state: string;
  city: string | null;
  age: number;
  groups: LeadGroup[];
}

/**
 * The solver's classes for these agents and groups. Leads that fit no agent with quota left
 * are left out; every class's leads are newest first and its fits sorted by agent id.
 */
export function buildClasses(agents: AgentProfile[], groups: LeadGroup[]): LeadClass[] {
  const index = indexAgents(agents);
  const coarse = new Map<string, Coarse & { entry: CategoryIndex }>();
  for (const group of groups) {
    const entry = index.get(group.category);
    if (!entry || group.leads.length === 0) continue;
    const city = normalizeCity(group.city);
    const namedCity = entry.namedCities.has(city) ? city : null;
    const state = entry.statesMatter ? group.state : '';
    const key = `${group.category}\u0001${state}\u0001${namedCity ?? '\u0000'}\u0001${ageBucket(entry.ageBreaks, group.age)}`;
    const found = coarse.get(key);
    if (found) found.groups.push(group);
    else
      coarse.set(key, {
        entry,
        state: group.state,
        city: namedCity,
        age: group.age,
        groups: [group],
      });
  }

  const merged = new Map<string, { fits: number[]; groups: LeadGroup[] }>();
  for (const c of coarse.values()) {
    const fits = fitsOf(c.entry, c.state, c.city, c.age);
    if (fits.length === 0) continue;
    const key = fits.join(',');
    const found = merged.get(key);
    if (found) found.groups.push(...c.groups);
    else merged.set(key, { fits, groups: c.groups });
  }

  const classes: LeadClass[] = [];
  for (const { fits, groups: parts } of merged.values()) {
    const leads =
      parts.length === 1 ? parts[0].leads : parts.flatMap((g) => g.leads).sort(byNewest);
    classes.push({ leads, fits });
  }
  return classes;
}
