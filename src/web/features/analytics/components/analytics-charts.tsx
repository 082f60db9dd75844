import type { Analytics } from '@shared/contracts/admin';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import type { ReactNode } from 'react';
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
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { categorySliceLabel, chartColor, conversionRateText } from '../analytics-format';

/** Every chart is 300 px high (spec section 9). */
const CHART_HEIGHT = 300;

function ChartCard({
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

const axisProps = { stroke: 'var(--muted-foreground)', fontSize: 12 } as const;

export function AssignmentsOverTimeChart({ data }: { data: Analytics['assignmentsOverTime'] }) {
  return (
    <ChartCard
      title="Assignments Over Time"
      description="Daily lead assignment trends"
      testId="chart-assignments"
    >
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
    </ChartCard>
  );
}

export function ConversionsByAgentChart({ data }: { data: Analytics['conversionsByAgent'] }) {
  return (
    <ChartCard
      title="Conversions by Agent"
      description="Top performing agents"
      testId="chart-conversions"
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <BarChart data={data}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="name" {...axisProps} />
          <YAxis allowDecimals={false} {...axisProps} />
          <Tooltip />
          <Legend />
          <Bar dataKey="converted" name="Converted Leads" fill="var(--chart-2)" maxBarSize={80} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function CategoryDistributionChart({ data }: { data: Analytics['categoryDistribution'] }) {
  return (
    <ChartCard
      title="Lead Category Distribution"
      description="Breakdown by insurance type"
      testId="chart-categories"
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
        <PieChart>
          <Pie
            data={data}
            dataKey="count"
            nameKey="category"
            cx="50%"
            cy="50%"
            outerRadius={100}
            label={({ payload }) => categorySliceLabel(payload.category, payload.count)}
          >
            {data.map((entry, index) => (
              <Cell key={entry.category} fill={chartColor(index)} />
            ))}
          </Pie>
          <Tooltip />
        </PieChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function SummaryStatisticsCard({ data }: { data: Analytics }) {
  const rows: [string, string | number][] = [
    ['Total Leads', data.totalLeads],
    ['Assigned', data.assignedLeads],
    ['Converted', data.convertedLeads],
    ['Conversion Rate', conversionRateText(data.convertedLeads, data.totalLeads)],
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
