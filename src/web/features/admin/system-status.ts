import type { AssignmentRun } from '../../../shared/contracts/admin';
import { DEFAULT_BUSINESS_TIME_ZONE, formatBusinessTime } from '../../../shared/format';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'down';
  lastAssignmentRun: AssignmentRun | null;
  /** BUSINESS_TZ, once the server names it; until then the screens use its default */
  businessTimeZone?: string;
}

export type StatusTone = 'ok' | 'warning' | 'error' | 'unknown';

export interface ComponentStatus {
  label: string;
  tone: StatusTone;
  detail: string;
}

/** Database: operational only when the server's health check reached it. */
export function databaseStatus(health: Health | undefined, failed: boolean): ComponentStatus {
  if (failed || health?.database === 'down') {
    return { label: 'Unavailable', tone: 'error', detail: 'The server cannot reach the database' };
  }
  if (!health) return { label: 'Checking...', tone: 'unknown', detail: '' };
  return { label: 'Operational', tone: 'ok', detail: 'Connected' };
}

/** Lead Assignment: operational only when the last run finished without an error. */
export function assignmentStatus(
  health: Health | undefined,
  failed: boolean,
  formatTime: (iso: string) => string = (iso) =>
    formatBusinessTime(iso, health?.businessTimeZone ?? DEFAULT_BUSINESS_TIME_ZONE),
): ComponentStatus {
  if (failed) return { label: 'Unknown', tone: 'unknown', detail: 'Status could not be loaded' };
  if (!health) return { label: 'Checking...', tone: 'unknown', detail: '' };
  const run = health.lastAssignmentRun;
  if (!run) {
    return { label: 'No run yet', tone: 'warning', detail: 'No assignment run has happened yet' };
  }
  const when = formatTime(run.startedAt);
  if (run.error)
    return { label: 'Failed', tone: 'error', detail: `Last run ${when}: ${run.error}` };
  const leads = `${run.assigned} lead${run.assigned === 1 ? '' : 's'} assigned`;
  return { label: 'Operational', tone: 'ok', detail: `Last run ${when}: ${leads}` };
}
