import { PageHeader } from '@web/components/layout/page-header';
import { WalletPanel } from '@web/features/wallet/components/wallet-panel';

export function AgentWalletPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Wallet"
        description="Your balance pays for the leads of a pay-per-lead package, one lead at a time."
      />
      <WalletPanel />
    </div>
  );
}
