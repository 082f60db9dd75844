/**
 * Analytics that explain (docs/domain.md, Analytics that explain): speed to lead and the sources' figures for a period of
 * business dates (docs/domain.md, "Analytics that explain").
 */
import type {
  PeriodQuery,
  SourceStats,
  SpeedFigures,
  SpeedToLead,
} from '../../../shared/contracts/analytics';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { sourceRows } from './source-stats.repository';
import { type SpeedRow, speedRows } from './speed-to-lead.repository';

/** Days in the default period, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** Longer periods are drawn per week. */
const DAILY_UP_TO_DAYS = 62;
const MAX_PERIOD_DAYS = 731;

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

export function resolvePeriod(q: PeriodQuery, timeZone: string, now = new Date()) {
  const to = q.to ?? businessDate(timeZone, now);
  const from = q.from ?? addDays(to, -(DEFAULT_PERIOD_DAYS - 1));
  if (daysBetween(from, to) < 0) throw badRequest('from is after to');
  if (daysBetween(from, to) > MAX_PERIOD_DAYS)
    throw badRequest('The period is longer than 2 years');
  return { from, to };
}

function figures(row: SpeedRow | undefined): SpeedFigures {
  const assigned = row?.assigned ?? 0;
  const contacted = row?.contacted ?? 0;
  const opened = row?.opened ?? 0;
  const round = (v: number | null | undefined) =>
    v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10;
  return {
    assigned,
    contacted,
    notContacted: assigned - contacted,
    medianMinutes: round(row?.medianMinutes),
    p90Minutes: round(row?.p90Minutes),
    open: {
      opened,
      notOpened: assigned - opened,
      medianMinutes: round(row?.openMedianMinutes),
      p90Minutes: round(row?.openP90Minutes),
    },
  };
}

/** Monday of the week a date lies in. */
function mondayOf(date: string): string {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

export async function speedToLead(db: Db, timeZone: string, q: PeriodQuery): Promise<SpeedToLead> {
  const { from, to } = resolvePeriod(q, timeZone);
  const week = daysBetween(from, to) + 1 > DAILY_UP_TO_DAYS;
  const rows = await speedRows(db, from, to, week);
  const buckets = new Map(rows.filter((r) => r.level === 1).map((r) => [r.bucket, r]));
  const trend: SpeedToLead['trend'] = [];
  for (let d = week ? mondayOf(from) : from; d <= to; d = addDays(d, week ? 7 : 1)) {
    trend.push({ date: d, ...figures(buckets.get(d)) });
  }
  const agents = rows
    .filter((r) => r.level === 2 && r.agentId !== null)
    .map((r) => ({ agentId: r.agentId as number, name: r.name ?? `#${r.agentId}`, ...figures(r) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.agentId - b.agentId);
  return {
    from,
    to,
    bucket: week ? 'week' : 'day',
    overall: figures(rows.find((r) => r.level === 0)),
    trend,
    agents,
  };
}

export async function sourceStats(db: Db, timeZone: string, q: PeriodQuery): Promise<SourceStats> {
  const { from, to } = resolvePeriod(q, timeZone);
  const rows = await sourceRows(db, from, to, timeZone);
  return {
    from,
    to,
    sources: rows.map((r) => {
      const costCents = r.costPerLeadCents * r.received;
      return {
        sourceId: r.sourceId,
        name: r.name ?? (r.sourceId === null ? 'No source' : `#${r.sourceId}`),
        costPerLeadCents: r.costPerLeadCents,
        received: r.received,
        refused: {
          INVALID: r.invalid,
          DUPLICATE: r.duplicate,
          DNC: r.dnc,
          SUPPRESSED: r.suppressed,
          CONSENT: r.consent,
        },
        assigned: r.assigned,
        returned: r.returned,
        converted: r.converted,
        costCents,
        costPerConversionCents: r.converted > 0 ? Math.round(costCents / r.converted) : null,
      };
    }),
  };
}
