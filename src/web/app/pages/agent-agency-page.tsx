import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { myAgencyQuery } from '@web/features/agency/api';
import { AgencyOverviewCard } from '@web/features/agency/components/agency-overview-card';
import { AgencyTabs } from '@web/features/agency/components/agency-tabs';
import { CreateAgencyCard } from '@web/features/agency/components/create-agency-card';

/**
 * The agent's agency (docs/domain.md, Agencies): in none, what one is and Create an agency; a
 * member sees their agency and Leave; the OWNER and a MANAGER also run it from the tabs.
 */
export function AgentAgencyPage() {
  const mine = useQuery(myAgencyQuery);
  const data = mine.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Agency"
        description={
          data
            ? data.role === 'AGENT'
              ? 'The agency you belong to'
              : 'Your members, their leads and how they work them'
            : 'Work leads together with your downline'
        }
      />
      {mine.isError ? (
        <LoadError
          message="Your agency could not be loaded."
          onRetry={() => mine.refetch()}
          retrying={mine.isFetching}
        />
      ) : data === undefined ? (
        <div className="space-y-3" data-testid="agency-loading">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-9 w-72" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : data === null ? (
        <CreateAgencyCard />
      ) : (
        <>
          <AgencyOverviewCard mine={data} />
          {data.role !== 'AGENT' && <AgencyTabs mine={data} />}
        </>
      )}
    </div>
  );
}
