import type { SourceStats, SpeedFigures, SpeedToLead } from '@shared/contracts/analytics';
import { formatPriceExact } from '@shared/format';
import { durationUnit, formatInUnit } from '@shared/format-minutes';
import { useQuery } from '@tanstack/react-query';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@web/components/ui/table';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { type Period, sourceStatsQuery, speedToLeadQuery } from '../api';
import { axisProps, CHART_HEIGHT, ChartCard } from './analytics-charts';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-lg border p-3" data-testid={testId}>
      <div className="text-muted-foreground text-xs">{label}</div>
      <div className="font-semibold text-xl">{value}</div>
    </div>
  );
}

function Loading({ error }: { error: boolean }) {
  return error ? (
    <p role="alert" className="text-destructive text-sm">
      These figures could not be loaded. Please reload the page.
    </p>
  ) : (
    <p className="text-muted-foreground text-sm" role="status">
      Loading...
    </p>
  );
}

/** One speed's figures of a period or a day: speed to lead's, or speed to open's. */
interface Speed {
  /** contacted, or opened */
  done: number;
  /** not yet contacted, or not yet opened */
  notDone: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
}
type SpeedOf = (figures: SpeedFigures) => Speed;

const toLead: SpeedOf = (f) => ({
  done: f.contacted,
  notDone: f.notContacted,
  medianMinutes: f.medianMinutes,
  p90Minutes: f.p90Minutes,
});
const toOpen: SpeedOf = (f) => ({
  done: f.open.opened,
  notDone: f.open.notOpened,
  medianMinutes: f.open.medianMinutes,
  p90Minutes: f.open.p90Minutes,
});

/** Median and p90 from assignment to first contact, and their trend (docs/domain.md, Analytics that explain). */
export function SpeedToLeadSection({ period }: { period: Period }) {
  const { data, isError } = useQuery(speedToLeadQuery(period));
  return (
    <ChartCard
      title="Speed to Lead"
      description="Time from assignment to the agent's first contact (status change, call or message)"
      testId="chart-speed-to-lead"
    >
      {!data ? (
        <Loading error={isError} />
      ) : (
        <SpeedBody
          data={data}
          speed={toLead}
          prefix="speed"
          notDoneLabel="Not yet contacted"
          none="No lead assigned in this period has been contacted yet."
        />
      )}
    </ChartCard>
  );
}

/**
 * Median and p90 from assignment to the agent's first opening of the lead (its drawer, a push, an
 * SMS link), and their trend (docs/domain.md, Alerts to the agent's phone).
 */
export function SpeedToOpenSection({ period }: { period: Period }) {
  const { data, isError } = useQuery(speedToLeadQuery(period));
  return (
    <ChartCard
      title="Speed to Open"
      description="Time from assignment to the agent first opening the lead (in My Leads, from a push or a text)"
      testId="chart-speed-to-open"
    >
      {!data ? (
        <Loading error={isError} />
      ) : (
        <SpeedBody
          data={data}
          speed={toOpen}
          prefix="open"
          notDoneLabel="Not yet opened"
          none="No lead assigned in this period has been opened yet."
        />
      )}
    </ChartCard>
  );
}

function SpeedBody({
  data,
  speed,
  prefix,
  notDoneLabel,
  none,
}: {
  data: SpeedToLead;
  speed: SpeedOf;
  prefix: string;
  notDoneLabel: string;
  none: string;
}) {
  const o = speed(data.overall);
  const trend = data.trend.map((p) => ({ date: p.date, ...speed(p) }));
  // the tiles, the axis and the tooltip in one unit, chosen by the largest figure shown
  const unit = durationUnit(
    Math.max(o.p90Minutes ?? 0, ...trend.map((p) => p.p90Minutes ?? p.medianMinutes ?? 0)),
  );
  const inUnit = (m: number | null) => (m === null ? null : m / unit.minutes);
  const points = trend.map((p) => ({
    date: p.date,
    median: inUnit(p.medianMinutes),
    p90: inUnit(p.p90Minutes),
  }));
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure
          label="Median"
          value={formatInUnit(o.medianMinutes, unit)}
          testId={`${prefix}-median`}
        />
        <Figure
          label="90th percentile"
          value={formatInUnit(o.p90Minutes, unit)}
          testId={`${prefix}-p90`}
        />
        <Figure
          label="Assigned"
          value={String(data.overall.assigned)}
          testId={`${prefix}-assigned`}
        />
        <Figure
          label={notDoneLabel}
          value={String(o.notDone)}
          testId={prefix === 'speed' ? 'speed-not-contacted' : `${prefix}-not-opened`}
        />
      </div>
      {o.done === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid={`${prefix}-none`}>
          {none}
        </p>
      ) : (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <LineChart data={points}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="date" {...axisProps} />
            <YAxis
              {...axisProps}
              width={70}
              tickFormatter={(v: number) => `${Number(v.toPrecision(3))} ${unit.label}`}
            />
            <Tooltip formatter={(value) => formatInUnit(Number(value) * unit.minutes, unit)} />
            <Legend />
            <Line
              type="monotone"
              dataKey="median"
              name={data.bucket === 'week' ? 'Median (weekly)' : 'Median'}
              stroke="var(--chart-1)"
              strokeWidth={2}
              connectNulls
            />
            <Line
              type="monotone"
              dataKey="p90"
              name="90th percentile"
              stroke="var(--chart-3)"
              strokeWidth={2}
              strokeDasharray="4 3"
              connectNulls
            />
          </LineChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}

const REFUSED = ['INVALID', 'DUPLICATE', 'DNC', 'SUPPRESSED', 'CONSENT'] as const;
const refusedLabel = {
  INVALID: 'Invalid',
  DUPLICATE: 'Duplicate',
  DNC: 'DNC',
  SUPPRESSED: 'Deleted consumer',
  CONSENT: 'Consent',
} as const;

/** Per source: received, refused by reason, assigned, returned, converted, cost (docs/domain.md, Analytics that explain). */
export function SourcesSection({ period }: { period: Period }) {
  const { data, isError } = useQuery(sourceStatsQuery(period));
  return (
    <ChartCard
      title="Sources"
      description="Leads received and refused per source, what became of them, and what they cost"
      testId="source-stats"
    >
      {!data ? <Loading error={isError} /> : <SourcesBody data={data} />}
    </ChartCard>
  );
}

function SourcesBody({ data }: { data: SourceStats }) {
  const rows = data.sources.filter(
    (s) => s.received > 0 || REFUSED.some((r) => s.refused[r] > 0) || s.sourceId !== null,
  );
  if (rows.length === 0)
    return <p className="text-muted-foreground text-sm">No sources and no leads in this period.</p>;
  const chart = rows.map((s) => ({
    name: s.name,
    Received: s.received,
    Refused: REFUSED.reduce((n, r) => n + s.refused[r], 0),
    Converted: s.converted,
  }));
  return (
    <div className="space-y-4">
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={chart}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="name" {...axisProps} interval={0} />
          <YAxis allowDecimals={false} {...axisProps} />
          <Tooltip />
          <Legend />
          <Bar dataKey="Received" fill="var(--chart-1)" maxBarSize={60} />
          <Bar dataKey="Refused" fill="var(--chart-4)" maxBarSize={60} />
          <Bar dataKey="Converted" fill="var(--chart-2)" maxBarSize={60} />
        </BarChart>
      </ResponsiveContainer>
      <Table scrollLabel="Figures by source">
        <TableHeader>
          <TableRow>
            <TableHead>Source</TableHead>
            <TableHead className="text-right">Received</TableHead>
            <TableHead className="text-right">Refused</TableHead>
            <TableHead className="text-right">Assigned</TableHead>
            <TableHead className="text-right">Returned</TableHead>
            <TableHead className="text-right">Converted</TableHead>
            <TableHead className="text-right">Cost</TableHead>
            <TableHead className="text-right">Per conversion</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((s) => (
            <TableRow key={s.sourceId ?? 'none'} data-testid="source-stats-row">
              <TableCell className="font-medium">{s.name}</TableCell>
              <TableCell className="text-right">{s.received}</TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {REFUSED.reduce((n, r) => n + s.refused[r], 0)}
                <div className="text-muted-foreground text-xs">
                  {REFUSED.map((r) => `${refusedLabel[r]} ${s.refused[r]}`).join(' · ')}
                </div>
              </TableCell>
              <TableCell className="text-right">{s.assigned}</TableCell>
              <TableCell className="text-right">{s.returned}</TableCell>
              <TableCell className="text-right">{s.converted}</TableCell>
              <TableCell className="text-right">{formatPriceExact(s.costCents)}</TableCell>
              <TableCell className="text-right">
                {s.costPerConversionCents === null
                  ? '—'
                  : formatPriceExact(s.costPerConversionCents)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
