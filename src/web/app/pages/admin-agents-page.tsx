import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent } from '@web/components/ui/card';
import { adminAgentsQuery } from '@web/features/admin/api';
import { AgentsTable } from '@web/features/admin/components/agents-table';
import { listView } from '@web/lib/list-view';

export function AdminAgentsPage() {
  const agents = useQuery(adminAgentsQuery);
  const list = agents.data ?? [];
  return (
    <div className="space-y-6">
      <PageHeader title="Agents" description="Every agent, their package and today's quota" />
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <AgentsTable
            agents={list}
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
