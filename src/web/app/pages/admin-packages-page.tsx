import { PageHeader } from '@web/components/layout/page-header';
import { AdminPackagesPanel } from '@web/features/packages/components/admin-packages-panel';

export function AdminPackagesPage() {
  return (
    <div className="space-y-6">
      <AdminPackagesPanel
        renderHeader={(createButton) => (
          <PageHeader
            title="Packages"
            description="Manage the packages agents can choose: a monthly subscription or pay per lead"
            actions={createButton}
          />
        )}
      />
    </div>
  );
}
