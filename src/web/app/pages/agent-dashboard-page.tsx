import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { LoadError } from '@web/components/ui/load-error';
import { myAgencyQuery } from '@web/features/agency/api';
import { AgencyMembershipCard } from '@web/features/agency/components/agency-membership-card';
import { agentStatsQuery } from '@web/features/agent/api';
import { AgentStatCards } from '@web/features/agent/components/agent-stat-cards';
import { ChoosePackageCallout } from '@web/features/agent/components/choose-package-callout';
import { QuickStartCard } from '@web/features/agent/components/quick-start-card';
import { PauseDeliveriesCard } from '@web/features/pause/components/pause-deliveries-card';
import { ScheduleCapsCard } from '@web/features/schedule/components/schedule-caps-card';

export function AgentDashboardPage() {
  const { data: stats, isPending, isError, isFetching, refetch } = useQuery(agentStatsQuery);
  const paidByAgency = useQuery(myAgencyQuery).data?.paidByAgency ?? false;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Dashboard"
        description={
          isPending && !isError
            ? 'Loading your statistics...'
            : "Welcome back! Here's your overview"
        }
      />
      {isError && (
        <LoadError
          message="Your statistics could not be loaded."
          onRetry={() => refetch()}
          retrying={isFetching}
        />
      )}
      <AgencyMembershipCard />
      {stats && <ChoosePackageCallout subscription={stats.subscription} />}
      {!isError && <AgentStatCards stats={stats} packagePaidByAgency={paidByAgency} />}
      <PauseDeliveriesCard />
      <ScheduleCapsCard />
      <QuickStartCard />
    </div>
  );
}
