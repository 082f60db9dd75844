import { PageHeader } from '@web/components/layout/page-header';
import { AdminDeliveriesPanel } from '@web/features/delivery/components/admin-deliveries-panel';

export function AdminDeliveriesPage() {
  return (
    <div className="space-y-6">
      <AdminDeliveriesPanel
        renderHeader={(refreshButton) => (
          <PageHeader
            title="Deliveries"
            description="How each assigned lead reached its agent: email and CRM webhooks"
            actions={refreshButton}
          />
        )}
      />
    </div>
  );
}
