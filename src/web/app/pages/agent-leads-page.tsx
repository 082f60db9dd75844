import { PageHeader } from '@web/components/layout/page-header';

export function AgentLeadsPage() {
  return <PageHeader title="My Leads" />;
}
