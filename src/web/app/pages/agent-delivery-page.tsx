import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { PageSpinner } from '@web/components/layout/page-spinner';
import { LoadError } from '@web/components/ui/load-error';
import { deliverySettingsQuery } from '@web/features/delivery/api';
import { DeliverySettingsForm } from '@web/features/delivery/components/delivery-settings-form';

export function AgentDeliveryPage() {
  const settings = useQuery(deliverySettingsQuery);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Delivery Settings"
        description="Choose how each new lead reaches you, besides My Leads."
      />
      {settings.isError ? (
        <LoadError
          message="Your delivery settings could not be loaded."
          onRetry={() => settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : settings.data ? (
        <DeliverySettingsForm settings={settings.data} />
      ) : (
        <PageSpinner />
      )}
    </div>
  );
}
