import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { PackagePicker } from '@web/features/agent/components/package-picker';
import { agentBillingQuery } from '@web/features/billing/api';
import { packagesQuery } from '@web/features/packages/api';

export function AgentPackagePage() {
  const billing = useQuery(agentBillingQuery);
  const stripe = billing.data !== undefined && billing.data.state !== 'OFF';
  const packages = useQuery(packagesQuery);
  const perLeadOffered = (packages.data ?? []).some(
    (pkg) => pkg.active && pkg.pricing === 'PER_LEAD',
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Package"
        description={`${
          stripe
            ? 'Choose the package that fits your business. You pay monthly by card through Stripe; the package starts once the payment goes through.'
            : 'Choose the package that fits your business. Subscribing activates it at once.'
        }${
          // with Stripe only a monthly package waits for a payment
          stripe && perLeadOffered
            ? ' A pay-per-lead package starts at once: each lead is paid from your wallet as it arrives.'
            : ''
        }`}
      />
      <PackagePicker />
    </div>
  );
}
