import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { LoadError } from '@web/components/ui/load-error';
import { adminStatsQuery, healthQuery } from '@web/features/admin/api';
import { AdminStatCards } from '@web/features/admin/components/admin-stat-cards';
import { QuickLinksCard } from '@web/features/admin/components/quick-links-card';
import { SystemStatusCard } from '@web/features/admin/components/system-status-card';
import { RunAssignmentButton } from '@web/features/assignment/components/run-assignment-button';

export function AdminDashboardPage() {
  const stats = useQuery(adminStatsQuery);
  const health = useQuery(healthQuery);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Admin Dashboard"
        description="Overview of your lead distribution platform"
      />
      {stats.isError && (
        <LoadError
          message="The statistics could not be loaded."
          onRetry={() => stats.refetch()}
          retrying={stats.isFetching}
        />
      )}
      {!stats.isError && <AdminStatCards stats={stats.data} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <QuickLinksCard />
        <SystemStatusCard
          health={health.data}
          failed={health.isError}
          assignmentAction={<RunAssignmentButton />}
        />
      </div>
    </div>
  );
}
