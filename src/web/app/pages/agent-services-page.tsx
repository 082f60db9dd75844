import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { PageSpinner } from '@web/components/layout/page-spinner';
import { LoadError } from '@web/components/ui/load-error';
import { AlertsCard } from '@web/features/alerts/components/alerts-card';
import { useCurrentUser } from '@web/features/auth/api';
import { agentServicesQuery } from '@web/features/calls/api';
import { CallsCard } from '@web/features/calls/components/calls-card';
import { PhoneCard } from '@web/features/calls/components/phone-card';
import { followUpQuery } from '@web/features/follow-ups/api';
import { FollowUpCard } from '@web/features/follow-ups/components/follow-up-card';
import { PushCard } from '@web/features/push/components/push-card';

/**
 * Services (docs/domain.md, Follow-up messages and calls; Alerts to the agent's phone): push
 * notifications on this device, the agent's phone, the alerts of new leads (push, SMS, quiet
 * hours), Call Recording, and the follow-up templates.
 */
export function AgentServicesPage() {
  const services = useQuery(agentServicesQuery);
  const followUp = useQuery(followUpQuery);
  const user = useCurrentUser().data;
  const failed = services.isError || followUp.isError;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Services"
        description="Alerts on this device, your phone number, recorded calls and follow-up messages to new leads."
      />
      {failed ? (
        <LoadError
          message="Your services could not be loaded."
          onRetry={() => Promise.all([services.refetch(), followUp.refetch()])}
          retrying={services.isFetching || followUp.isFetching}
        />
      ) : services.data && followUp.data ? (
        <>
          <PushCard />
          <PhoneCard services={services.data} />
          <AlertsCard phoneKey={`${services.data.phone}:${services.data.phoneVerified}`} />
          <CallsCard services={services.data} />
          <FollowUpCard
            settings={followUp.data}
            agentName={user?.name ?? 'Your name'}
            agentPhone={services.data.phone}
          />
        </>
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
