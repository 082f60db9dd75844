import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent } from '@web/components/ui/card';
import { adminAgentsQuery } from '@web/features/admin/api';
import { AgentsTable } from '@web/features/admin/components/agents-table';

export function AdminAgentsPage() {
  const agents = useQuery(adminAgentsQuery);
  return (
    <div className="space-y-6">
      <PageHeader title="Agents" description="Every agent, their package and today's quota" />
      {agents.isError && (
        <p role="alert" className="text-destructive text-sm">
          The agents could not be loaded. Please reload the page.
        </p>
      )}
      <Card className="py-0">
        <CardContent className="px-0 [&_td:first-child]:pl-6 [&_td:last-child]:pr-6 [&_th:first-child]:pl-6 [&_th:last-child]:pr-6">
          <AgentsTable agents={agents.data ?? []} isLoading={agents.isPending} />
        </CardContent>
      </Card>
    </div>
  );
}
