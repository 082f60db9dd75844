import { PageHeader } from '@web/components/layout/page-header';

export function AdminLeadsPage() {
  return <PageHeader title="Leads Management" />;
}
