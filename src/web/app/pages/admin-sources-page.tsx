import { PageHeader } from '@web/components/layout/page-header';
import { AdminSourcesPanel } from '@web/features/sources/components/admin-sources-panel';

export function AdminSourcesPage() {
  return (
    <div className="space-y-6">
      <AdminSourcesPanel
        renderHeader={(createButton) => (
          <PageHeader
            title="Sources"
            description="Where leads come from, and the API keys their systems send leads with"
            actions={createButton}
          />
        )}
      />
    </div>
  );
}
