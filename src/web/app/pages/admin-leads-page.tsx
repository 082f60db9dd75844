import type { ImportResult } from '@shared/contracts/leads';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { adminAgentsQuery } from '@web/features/admin/api';
import { adminLeadsKey } from '@web/features/leads/api';
import { AdminLeadsPanel } from '@web/features/leads/components/admin-leads-panel';
import { CsvFormatCard } from '@web/features/leads/components/csv-format-card';
import { ImportCsvButton } from '@web/features/leads/components/import-csv-button';
import { ImportProgress } from '@web/features/leads/components/import-progress';
import { ImportReport } from '@web/features/leads/components/import-report';
import { useCsvImport } from '@web/features/leads/use-csv-import';
import { ExportCsvButton } from '@web/features/leads-export/export-button';
import { useObservedLeadsFilter } from '@web/features/leads-export/use-leads-filter';
import { useState } from 'react';

export function AdminLeadsPage() {
  const [lastImport, setLastImport] = useState<ImportResult | null>(null);
  const agents = useQuery(adminAgentsQuery);
  const filter = useObservedLeadsFilter(adminLeadsKey);
  const csvImport = useCsvImport();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Leads Management"
        description="Import leads and assign them to agents"
        actions={
          <>
            <ExportCsvButton filter={filter} />
            <ImportCsvButton csvImport={csvImport} onImported={setLastImport} />
          </>
        }
      />
      {csvImport.state && <ImportProgress state={csvImport.state} />}
      {lastImport && <ImportReport result={lastImport} onDismiss={() => setLastImport(null)} />}
      <CsvFormatCard />
      <AdminLeadsPanel agents={agents.data ?? []} agentsLoading={agents.isPending} />
    </div>
  );
}
