import { PageHeader } from '@web/components/layout/page-header';
import { LegalPagesEditor } from '@web/features/legal/components/legal-pages-editor';

/** The platform's settings an admin edits (docs/domain.md, Legal pages). */
export function AdminSettingsPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="What the platform shows to everyone" />
      <LegalPagesEditor />
    </div>
  );
}
