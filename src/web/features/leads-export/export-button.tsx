import { Button } from '@web/components/ui/button';
import { Download } from 'lucide-react';
import { type LeadsExportFilter, leadsExportUrl } from './export-url';

/**
 * Export CSV: a plain link to the export of the current filter. The browser downloads the
 * streamed file itself (under the server's leads-YYYY-MM-DD.csv name), so no row passes through
 * the page's memory, whatever the number of leads.
 */
export function ExportCsvButton({ filter }: { filter?: LeadsExportFilter }) {
  const describedFilter = [filter?.status, filter?.q?.trim()].filter(Boolean).join(', ');
  return (
    <Button asChild variant="outline">
      <a
        href={leadsExportUrl(filter)}
        download
        title={
          describedFilter
            ? `Download the leads matching ${describedFilter} as CSV`
            : 'Download all leads as CSV'
        }
      >
        <Download aria-hidden="true" />
        Export CSV
      </a>
    </Button>
  );
}
