import type { ImportResult } from '@shared/contracts/leads';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { adminAgentsQuery } from '@web/features/admin/api';
import { AdminLeadsPanel } from '@web/features/leads/components/admin-leads-panel';
import { CsvFormatCard } from '@web/features/leads/components/csv-format-card';
import { ImportCsvButton } from '@web/features/leads/components/import-csv-button';
import { ImportHistory } from '@web/features/leads/components/import-history';
import { ImportProgress } from '@web/features/leads/components/import-progress';
import { ImportReport } from '@web/features/leads/components/import-report';
import { useLeadsListState } from '@web/features/leads/components/leads-list-controls';
import { useCsvImport } from '@web/features/leads/use-csv-import';
import { ExportCsvButton } from '@web/features/leads-export/export-button';
import { ImportSourceSelect } from '@web/features/sources/components/import-source-select';
import { useState } from 'react';

export function AdminLeadsPage() {
  const [lastImport, setLastImport] = useState<ImportResult | null>(null);
  const agents = useQuery(adminAgentsQuery);
  // The list's search, filter and page live here: the list shows them and the export takes the
  // same status and search (once typing pauses), so the file holds what the admin sees.
  const list = useLeadsListState();
  const csvImport = useCsvImport();
  const [sourceId, setSourceId] = useState<number | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Leads Management"
        description="Import leads and assign them to agents"
        actions={
          <>
            <ExportCsvButton filter={{ status: list.params.status, q: list.params.q }} />
            <ImportSourceSelect
              value={sourceId}
              onChange={setSourceId}
              disabled={csvImport.isPending}
            />
            <ImportCsvButton csvImport={csvImport} onImported={setLastImport} sourceId={sourceId} />
          </>
        }
      />
      {csvImport.state && <ImportProgress state={csvImport.state} />}
      {lastImport && <ImportReport result={lastImport} onDismiss={() => setLastImport(null)} />}
      <CsvFormatCard />
      <AdminLeadsPanel list={list} agents={agents.data ?? []} agentsLoading={agents.isPending} />
      <ImportHistory />
    </div>
  );
}
