import type { Lead } from '@shared/contracts/leads';
import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { agentLeadsQuery } from '../api';
import { searchLeads } from '../lead-search';
import { LeadsTable } from './leads-table';
import { UpdateLeadStatusDrawer } from './update-lead-status-drawer';

const ALL = 'ALL';

/**
 * My Leads: the status filter asks the server (?status=), the search narrows the loaded list
 * (spec section 7), and each row opens the status drawer.
 */
export function AgentLeadsPanel() {
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState<LeadStatus | typeof ALL>(ALL);
  const [selected, setSelected] = useState<Lead | null>(null);
  const leadsQuery = useQuery(agentLeadsQuery(statusFilter === ALL ? undefined : statusFilter));
  const visible = useMemo(
    () => searchLeads(leadsQuery.data ?? [], search),
    [leadsQuery.data, search],
  );

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center">
          <div className="relative w-full sm:max-w-sm">
            <Search
              className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search name, phone or email..."
              aria-label="Search leads"
              className="pl-9"
            />
          </div>
          <Select
            value={statusFilter}
            onValueChange={(value) => setStatusFilter(value as LeadStatus | typeof ALL)}
          >
            <SelectTrigger className="w-full sm:w-44" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All Status</SelectItem>
              {LEAD_STATUSES.map((status) => (
                <SelectItem key={status} value={status}>
                  {leadStatusLabel(status)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <p
          className="shrink-0 text-muted-foreground text-sm"
          data-testid="lead-count"
          aria-live="polite"
        >
          {leadsQuery.isPending
            ? 'Loading leads...'
            : `${visible.length} ${visible.length === 1 ? 'lead' : 'leads'}`}
        </p>
      </CardHeader>
      <CardContent>
        {leadsQuery.isError ? (
          <p role="alert" className="py-8 text-center text-destructive text-sm">
            Your leads could not be loaded. Please reload the page.
          </p>
        ) : (
          <LeadsTable
            leads={visible}
            isLoading={leadsQuery.isPending}
            onUpdateStatus={setSelected}
          />
        )}
      </CardContent>
      <UpdateLeadStatusDrawer lead={selected} onClose={() => setSelected(null)} />
    </Card>
  );
}
