import { PageHeader } from '@web/components/layout/page-header';
import { PackagePicker } from '@web/features/agent/components/package-picker';

export function AgentPackagePage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Package"
        description="Choose the package that fits your business. Subscribing activates it at once."
      />
      <PackagePicker />
    </div>
  );
}
