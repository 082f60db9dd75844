/**
 * Who may receive leads in a run, and what they fit (docs/domain.md, Assignment). Pure: the repository
 * reads the rows, these functions decide.
 */
import type { LeadCategory } from '../../../shared/domain';
import type { EnrollmentWindows } from '../../config/env';
import { inYearlyWindow, monthDayOf } from '../../lib/business-time';

/** An agent with an ACTIVE subscription to a package, as the repository reads it. */
export interface AgentRow {
  id: number;
  category: LeadCategory;
  quota: number;
  enrollmentOnly: boolean;
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
  categories: string[];
  /** states the agent is licensed in; empty: not restricted (docs/domain.md, Licensed states) */
  licensedStates?: string[];
  /** paused at the run's clock (docs/domain.md, Pause): not eligible at all */
  paused?: boolean;
}

/** An eligible agent, ready for class building: cities normalized, categories resolved. */
export interface AgentProfile {
  id: number;
  /** The package's category, or null when the agent's preferred categories exclude it. */
  category: LeadCategory | null;
  quota: number;
  assignedToday: number;
  states: string[];
  cities: string[];
  ageMin: number | null;
  ageMax: number | null;
}

/**
 * The states an agent may receive leads of: the preferred states within the licence when both are
 * set, the licensed states when only they are, the preferred ones (or [] = any) otherwise. null:
 * preferences and licence do not overlap, so the agent fits no lead.
 */
export function effectiveStates(preferred: string[], licensed: string[]): string[] | null {
  if (licensed.length === 0) return preferred;
  if (preferred.length === 0) return [...new Set(licensed)];
  const allowed = new Set(licensed);
  const both = [...new Set(preferred.filter((s) => allowed.has(s)))];
  return both.length === 0 ? null : both;
}

/** Lowercase, trim, collapse inner whitespace: how cities are compared (docs/domain.md, Assignment). */
export function normalizeCity(city: string): string {
  return city.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * Whether an enrollment-only package may receive leads on this business date. A category with
 * no window configured (FINAL_EXPENSE by default) has no enrollment period to wait for, so the
 * flag has no effect there: always open.
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

/**
 * The eligible agents among the ACTIVE subscribers: paused agents left out, enrollment windows
 * applied, licences applied to the states, quota used today attached. An agent whose preferred
 * categories leave out the package's category, or whose preferred states lie all outside the
 * licence, stays eligible (and counted) but fits no lead.
 */
export function eligibleAgents(
  rows: AgentRow[],
  assignedToday: Map<number, number>,
  businessDate: string,
  windows: EnrollmentWindows,
): AgentProfile[] {
  const out: AgentProfile[] = [];
  for (const row of rows) {
    if (row.paused) continue;
    if (!enrollmentOpen(row.category, row.enrollmentOnly, businessDate, windows)) continue;
    const states = effectiveStates(row.states, row.licensedStates ?? []);
    const wanted =
      states !== null && (row.categories.length === 0 || row.categories.includes(row.category));
    out.push({
      id: row.id,
      category: wanted ? row.category : null,
      quota: row.quota,
      assignedToday: assignedToday.get(row.id) ?? 0,
      states: states ?? [],
      cities: [...new Set(row.cities.map(normalizeCity).filter((c) => c !== ''))],
      ageMin: row.ageMin,
      ageMax: row.ageMax,
    });
  }
  return out;
}
