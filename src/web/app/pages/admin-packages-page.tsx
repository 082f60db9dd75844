import { PageHeader } from '@web/components/layout/page-header';

export function AdminPackagesPage() {
  return <PageHeader title="Packages" />;
}
