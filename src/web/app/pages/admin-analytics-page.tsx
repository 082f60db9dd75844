import { PageHeader } from '@web/components/layout/page-header';

export function AdminAnalyticsPage() {
  return <PageHeader title="Analytics" />;
}
