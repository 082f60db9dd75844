import type { Analytics } from '@shared/contracts/admin';
import { categoryLabel, formatConversionRate } from '@shared/format';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { type ReactNode, useMemo, useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  type PieLabelRenderProps,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  type XAxisTickContentProps,
  YAxis,
} from 'recharts';
import {
  agentTickLabel,
  categorySliceLabel,
  chartColor,
  PIE_RADIUS,
  pieLabelsFitBeside,
} from '../analytics-format';

/** Every chart is 300 px high (docs/domain.md, Screens). */
export const CHART_HEIGHT = 300;

export function ChartCard({
  title,
  description,
  testId,
  children,
}: {
  title: string;
  description: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** What an empty chart says instead of drawing bare axes, in the chart's own room. */
export function EmptyChart({ text, testId }: { text: string; testId: string }) {
  return (
    <div
      className="flex items-center justify-center text-center text-muted-foreground text-sm"
      style={{ height: CHART_HEIGHT }}
      data-testid={testId}
    >
      {text}
    </div>
  );
}

const AXIS_FONT = 12;
export const axisProps = { stroke: 'var(--muted-foreground)', fontSize: AXIS_FONT } as const;

/** Width (px) of the widest of these texts in the page's own font at this size. */
function widestText(texts: string[], fontPx: number): number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return Math.max(0, ...texts.map((text) => text.length)) * fontPx * 0.7;
  context.font = `${fontPx}px ${getComputedStyle(document.body).fontFamily}`;
  return Math.max(0, ...texts.map((text) => context.measureText(text).width));
}

export function AssignmentsOverTimeChart({ data }: { data: Analytics['assignmentsOverTime'] }) {
  return (
    <ChartCard
      title="Assignments Over Time"
      description="Daily lead assignment trends"
      testId="chart-assignments"
    >
      {data.every((d) => d.count === 0) ? (
        <EmptyChart
          text="No leads were assigned in this period."
          testId="chart-assignments-empty"
        />
      ) : (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <LineChart data={data}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="date" {...axisProps} />
            <YAxis allowDecimals={false} {...axisProps} />
            <Tooltip />
            <Legend />
            <Line
              type="monotone"
              dataKey="count"
              name="Assignments"
              stroke="var(--chart-1)"
              strokeWidth={2}
            />
          </LineChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}

/** Agents' names lean at 45°, so ten fit under their bars on a phone. */
const AGENT_TICK_SLANT = Math.SQRT1_2;
/** Recharts' default width of the count axis left of the bars. */
const COUNT_AXIS_WIDTH = 60;

/** An agent's name under its bar, slanted and on one line (recharts' own tick would wrap it). */
function AgentTick({ x, y, payload }: XAxisTickContentProps) {
  return (
    <text
      x={x}
      y={y}
      dy={AXIS_FONT}
      textAnchor="end"
      transform={`rotate(-45, ${x}, ${y})`}
      fill="var(--muted-foreground)"
      fontSize={AXIS_FONT}
    >
      {agentTickLabel(String(payload.value))}
    </text>
  );
}

export function ConversionsByAgentChart({ data }: { data: Analytics['conversionsByAgent'] }) {
  // the longest slanted name sets the room under the bars and, left of the first bar, beside them
  const slantedReach = useMemo(
    () =>
      widestText(
        data.map((agent) => agentTickLabel(agent.name)),
        AXIS_FONT,
      ) * AGENT_TICK_SLANT,
    [data],
  );
  return (
    <ChartCard
      title="Conversions by Agent"
      description="Top performing agents"
      testId="chart-conversions"
    >
      {data.length === 0 ? (
        <EmptyChart
          text="No agent has converted a lead in this period yet."
          testId="chart-conversions-empty"
        />
      ) : (
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          <BarChart
            data={data}
            margin={{
              top: 5,
              right: 5,
              bottom: 5,
              left: Math.max(5, slantedReach - COUNT_AXIS_WIDTH),
            }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            {/* every agent's name (recharts would drop the ones that collide) */}
            <XAxis
              dataKey="name"
              interval={0}
              tick={AgentTick}
              height={Math.ceil(slantedReach + AXIS_FONT + 8)}
              {...axisProps}
            />
            <YAxis allowDecimals={false} width={COUNT_AXIS_WIDTH} {...axisProps} />
            <Tooltip />
            <Legend />
            <Bar dataKey="converted" name="Converted Leads" fill="var(--chart-2)" maxBarSize={80} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}

/** Font size of the pie's slice labels (px). */
const PIE_LABEL_FONT = 12;

/**
 * A slice's label beside it: the category, then its count on a second line. It reads as one
 * text, "MEDICARE 141"; the space between goes where it shifts neither line.
 */
function PieSliceLabel({ x, y, textAnchor, fill, payload }: PieLabelRenderProps) {
  const spaceFirst = textAnchor === 'end';
  return (
    <text x={x} y={y} textAnchor={textAnchor} fill={fill} fontSize={PIE_LABEL_FONT}>
      <tspan x={x} dy="-0.2em">
        {`${categoryLabel(payload.category)}${spaceFirst ? '' : ' '}`}
      </tspan>
      <tspan x={x} dy="1.2em">
        {`${spaceFirst ? ' ' : ''}${payload.count}`}
      </tspan>
    </text>
  );
}

export function CategoryDistributionChart({ data }: { data: Analytics['categoryDistribution'] }) {
  const [chartWidth, setChartWidth] = useState(0);
  const widestLine = useMemo(
    () =>
      widestText(
        data.flatMap((slice) => [categoryLabel(slice.category), String(slice.count)]),
        PIE_LABEL_FONT,
      ),
    [data],
  );
  const labelsBeside = pieLabelsFitBeside(chartWidth, widestLine);
  return (
    <ChartCard
      title="Lead Category Distribution"
      description="Breakdown by insurance type"
      testId="chart-categories"
    >
      {data.length === 0 ? (
        <EmptyChart text="No leads were stored in this period." testId="chart-categories-empty" />
      ) : (
        <ResponsiveContainer
          width="100%"
          height={CHART_HEIGHT}
          onResize={(width) => setChartWidth(width)}
        >
          <PieChart>
            <Pie
              data={data}
              dataKey="count"
              nameKey="category"
              cx="50%"
              cy="50%"
              outerRadius={PIE_RADIUS}
              label={labelsBeside ? PieSliceLabel : false}
            >
              {data.map((entry, index) => (
                <Cell key={entry.category} fill={chartColor(index)} />
              ))}
            </Pie>
            <Tooltip />
            {/* too narrow for labels beside the slices (a phone): the same labels under the pie */}
            {!labelsBeside && (
              <Legend
                formatter={(_, entry) => {
                  const slice =
                    entry.payload as unknown as Analytics['categoryDistribution'][number];
                  return categorySliceLabel(slice.category, slice.count);
                }}
              />
            )}
          </PieChart>
        </ResponsiveContainer>
      )}
    </ChartCard>
  );
}

export function SummaryStatisticsCard({ data }: { data: Analytics }) {
  const rows: [string, string | number][] = [
    ['Total Leads', data.totalLeads],
    ['Assigned', data.assignedLeads],
    ['Converted', data.convertedLeads],
    ['Conversion Rate', formatConversionRate(data.convertedLeads, data.assignedLeads)],
  ];
  return (
    <ChartCard
      title="Summary Statistics"
      description="Key performance indicators"
      testId="summary-statistics"
    >
      <dl className="divide-y">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between py-3">
            <dt className="text-muted-foreground text-sm">{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </ChartCard>
  );
}
