import { AdminDncPanel } from '@web/features/dnc/components/admin-dnc-panel';

export function AdminDncPage() {
  return (
    <div className="space-y-6">
      <AdminDncPanel />
    </div>
  );
}
