import { AdminAuditPanel } from '@web/features/audit/components/admin-audit-panel';

export function AdminAuditPage() {
  return (
    <div className="space-y-6">
      <AdminAuditPanel />
    </div>
  );
}
