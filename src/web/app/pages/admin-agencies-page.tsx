import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent } from '@web/components/ui/card';
import { adminAgenciesQuery } from '@web/features/agency/api';
import { AdminAgenciesTable } from '@web/features/agency/components/admin-agencies-table';
import { listView } from '@web/lib/list-view';

export function AdminAgenciesPage() {
  const agencies = useQuery(adminAgenciesQuery);
  const list = agencies.data ?? [];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Agencies"
        description="Every agency, its owner, members and leads; suspend one to stop its leads"
      />
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <AdminAgenciesTable
            agencies={list}
            view={listView(agencies, list.length)}
            error={{
              message: 'The agencies could not be loaded.',
              onRetry: () => agencies.refetch(),
              retrying: agencies.isFetching,
            }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
