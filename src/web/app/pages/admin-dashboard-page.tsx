import { PageHeader } from '@web/components/layout/page-header';

export function AdminDashboardPage() {
  return <PageHeader title="Admin Dashboard" />;
}
