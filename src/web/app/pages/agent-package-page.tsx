import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { PackagePicker } from '@web/features/agent/components/package-picker';
import { agentBillingQuery } from '@web/features/billing/api';

export function AgentPackagePage() {
  const billing = useQuery(agentBillingQuery);
  const stripe = billing.data !== undefined && billing.data.state !== 'OFF';
  return (
    <div className="space-y-6">
      <PageHeader
        title="Package"
        description={
          stripe
            ? 'Choose the package that fits your business. You pay monthly by card through Stripe; the package starts once the payment goes through.'
            : 'Choose the package that fits your business. Subscribing activates it at once.'
        }
      />
      <PackagePicker />
    </div>
  );
}
