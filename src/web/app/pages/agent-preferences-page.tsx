import { PageHeader } from '@web/components/layout/page-header';

export function AgentPreferencesPage() {
  return <PageHeader title="Lead Preferences" />;
}
