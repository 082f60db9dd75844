import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { PageSpinner } from '@web/components/layout/page-spinner';
import { agentPreferencesQuery } from '@web/features/agent/api';
import { PreferencesForm } from '@web/features/agent/components/preferences-form';
import { LicenceWarning } from '@web/features/licences/components/licence-warning';

export function AgentPreferencesPage() {
  const { data, isError } = useQuery(agentPreferencesQuery);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Lead Preferences"
        description="Tell us which leads you want. Daily assignment follows these choices."
      />
      {isError ? (
        <p role="alert" className="text-destructive text-sm">
          Your preferences could not be loaded. Please reload the page.
        </p>
      ) : data ? (
        <>
          <LicenceWarning />
          <PreferencesForm initial={data} />
        </>
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
