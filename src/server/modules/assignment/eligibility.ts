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
 * The eligible agents among the ACTIVE subscribers: enrollment windows applied, quota used today
 * attached. An agent whose preferred categories leave out the package's category stays eligible
 * (and counted) but fits no lead.
 */
export function eligibleAgents(
  rows: AgentRow[],
  assignedToday: Map<number, number>,
  businessDate: string,
  windows: EnrollmentWindows,
): AgentProfile[] {
  const out: AgentProfile[] = [];
  for (const row of rows) {
    if (!enrollmentOpen(row.category, row.enrollmentOnly, businessDate, windows)) continue;
    const wanted = row.categories.length === 0 || row.categories.includes(row.category);
    out.push({
      id: row.id,
      category: wanted ? row.category : null,
      quota: row.quota,
      assignedToday: assignedToday.get(row.id) ?? 0,
      states: row.states,
      cities: [...new Set(row.cities.map(normalizeCity).filter((c) => c !== ''))],
      ageMin: row.ageMin,
      ageMax: row.ageMax,
    });
  }
  return out;
}
