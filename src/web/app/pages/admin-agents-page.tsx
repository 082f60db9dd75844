import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent } from '@web/components/ui/card';
import { adminAgentsQuery, useBusinessTimeZone } from '@web/features/admin/api';
import { AgentsTable } from '@web/features/admin/components/agents-table';
import { speedToLeadQuery } from '@web/features/analytics/api';
import { periodOfDays } from '@web/features/analytics/components/period-picker';
import { listView } from '@web/lib/list-view';
import { useMemo } from 'react';

export function AdminAgentsPage() {
  const agents = useQuery(adminAgentsQuery);
  const list = agents.data ?? [];
  // speed to lead over the last 30 days comes apart: the table never waits for its percentiles
  const timeZone = useBusinessTimeZone();
  const period = useMemo(() => periodOfDays(30, timeZone), [timeZone]);
  const speed = useQuery(speedToLeadQuery(period));
  const speedByAgent = useMemo(
    () => (speed.data ? new Map(speed.data.agents.map((a) => [a.agentId, a])) : undefined),
    [speed.data],
  );
  return (
    <div className="space-y-6">
      <PageHeader title="Agents" description="Every agent, their package and today's quota" />
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <AgentsTable
            agents={list}
            speed={speedByAgent}
            view={listView(agents, list.length)}
            error={{
              message: 'The agents could not be loaded.',
              onRetry: () => agents.refetch(),
              retrying: agents.isFetching,
            }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
