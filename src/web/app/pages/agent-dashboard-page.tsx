import { PageHeader } from '@web/components/layout/page-header';

export function AgentDashboardPage() {
  return <PageHeader title="Dashboard" />;
}
