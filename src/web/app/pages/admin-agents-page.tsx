import { PageHeader } from '@web/components/layout/page-header';

export function AdminAgentsPage() {
  return <PageHeader title="Agents" />;
}
