import { AdminPrivacyPanel } from '@web/features/privacy/components/admin-privacy-panel';

export function AdminPrivacyPage() {
  return (
    <div className="space-y-6">
      <AdminPrivacyPanel />
    </div>
  );
}
