import type { AgencyLead, AgencyMember } from '@shared/contracts/agency';
import { LEAD_STATUSES, type LeadStatus } from '@shared/domain';
import {
  categoryLabel,
  formatBusinessTime,
  leadName,
  leadPlace,
  leadStatusLabel,
} from '@shared/format';
import { formatPhone } from '@shared/phone';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable } from '@web/components/ui/data-table';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Pager } from '@web/components/ui/pager';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { LeadStatusBadge } from '@web/features/leads/components/lead-status-badge';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { reassignChoices } from '../agency-display';
import { agencyLeadsQuery, useReassignAgencyLead } from '../api';

const ALL = 'ALL';
const PAGE_SIZE = 50;
/** the statuses of a lead a member is working: only those may move to another member */
const WORKING: LeadStatus[] = ['ASSIGNED', 'CONTACTED', 'IN_PROGRESS'];

function useDebounced<T>(value: T, delay = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** Move a lead to another member in scope; the server's refusal (409: why) shows in a toast. */
function ReassignDialog({ lead, members }: { lead: AgencyLead; members: AgencyMember[] }) {
  const reassign = useReassignAgencyLead();
  const [open, setOpen] = useState(false);
  const [userId, setUserId] = useState('');
  const choices = reassignChoices(members, lead.agent?.id ?? null);
  const name = leadName(lead);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Reassign ${name}`}>
          Reassign
        </Button>
      </DialogTrigger>
      <DialogContent data-testid="reassign-dialog">
        <DialogHeader>
          <DialogTitle>Reassign {name}</DialogTitle>
          <DialogDescription>
            {lead.agent ? `${lead.agent.name} holds it now. ` : ''}The member you choose receives it
            as a new lead, counted in their quota today.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="reassign-member">Member</Label>
          <Select value={userId} onValueChange={setUserId}>
            <SelectTrigger id="reassign-member" className="w-full">
              <SelectValue placeholder="Choose a member" />
            </SelectTrigger>
            <SelectContent>
              {choices.map((m) => (
                <SelectItem key={m.userId} value={String(m.userId)}>
                  {m.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <DialogFooter>
          <Button
            disabled={!userId || reassign.isPending}
            onClick={() =>
              reassign.mutate(
                { leadId: lead.id, userId: Number(userId) },
                {
                  onSuccess: (moved) => {
                    setOpen(false);
                    setUserId('');
                    toast({
                      title: 'Lead reassigned',
                      description: `${name} → ${moved.agent?.name ?? 'the member'}`,
                    });
                  },
                  onError: (error) =>
                    toast({
                      variant: 'destructive',
                      title: 'Reassignment refused',
                      description: errorMessage(error, 'Failed to reassign the lead'),
                    }),
                },
              )
            }
          >
            {reassign.isPending && <Spinner />}
            Reassign
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function columns(timeZone: string): DataColumn<AgencyLead>[] {
  return [
    {
      header: 'Lead',
      phone: 'title',
      minWidth: 'min-w-32',
      cell: (lead) => (
        <>
          <div className="font-medium">{leadName(lead)}</div>
          <div className="font-normal text-muted-foreground text-xs">
            {lead.phone ? formatPhone(lead.phone) : (lead.email ?? '—')}
          </div>
        </>
      ),
    },
    {
      header: 'Status',
      phone: 'badge',
      nowrap: true,
      cell: (lead) => <LeadStatusBadge status={lead.status} />,
    },
    {
      header: 'Member',
      minWidth: 'min-w-24',
      cell: (lead) =>
        lead.agent ? (
          <span data-testid="book-member">{lead.agent.name}</span>
        ) : (
          <span className="text-muted-foreground">Agency pool</span>
        ),
    },
    { header: 'Location', minWidth: 'min-w-24', cell: (lead) => leadPlace(lead) },
    {
      header: 'Category',
      nowrap: true,
      cell: (lead) => <Badge variant="outline">{categoryLabel(lead.category)}</Badge>,
    },
    {
      header: 'Assigned',
      minWidth: 'min-w-28',
      cell: (lead) => (
        <>
          <div>{lead.assignedAt ? formatBusinessTime(lead.assignedAt, timeZone) : '—'}</div>
          {lead.reclaims > 0 && (
            <div className="text-muted-foreground text-xs">
              Taken back {lead.reclaims} {lead.reclaims === 1 ? 'time' : 'times'}
            </div>
          )}
        </>
      ),
    },
  ];
}

/**
 * The agency's book of business: the leads given through it that the caller may see, filtered by
 * member and status and searched by the server, a page at a time; a lead being worked may be
 * moved to another member.
 */
export function AgencyBook({ members }: { members: AgencyMember[] }) {
  const timeZone = useBusinessTimeZone();
  const [memberId, setMemberId] = useState(ALL);
  const [status, setStatus] = useState<LeadStatus | typeof ALL>(ALL);
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useDebounced(search.trim());
  // a new filter starts at the first page
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when a filter changes
  useEffect(() => setOffset(0), [memberId, status, q]);
  const page = useQuery({
    ...agencyLeadsQuery({
      memberId: memberId === ALL ? undefined : Number(memberId),
      status: status === ALL ? undefined : status,
      q: q || undefined,
      limit: PAGE_SIZE,
      offset,
    }),
    placeholderData: keepPreviousData,
  });
  const leads = page.data?.items ?? [];
  const total = page.data?.total ?? 0;
  const view = listView(page, leads.length);
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <div className="relative w-full sm:max-w-xs">
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name, phone or email"
            aria-label="Search the book"
            className="pl-9"
          />
        </div>
        <Select value={memberId} onValueChange={setMemberId}>
          <SelectTrigger className="w-full sm:w-48" aria-label="Filter by member">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All members</SelectItem>
            {members.map((m) => (
              <SelectItem key={m.userId} value={String(m.userId)}>
                {m.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Select value={status} onValueChange={(value) => setStatus(value as LeadStatus)}>
          <SelectTrigger className="w-full sm:w-44" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Status</SelectItem>
            {LEAD_STATUSES.map((s) => (
              <SelectItem key={s} value={s}>
                {leadStatusLabel(s)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p
          className="text-muted-foreground text-sm sm:ml-auto"
          aria-live="polite"
          data-testid="book-count"
        >
          {view === 'error'
            ? ''
            : page.data
              ? `${total} ${total === 1 ? 'lead' : 'leads'}`
              : 'Loading leads...'}
        </p>
      </div>
      <DataTable
        label="Book of business"
        columns={columns(timeZone)}
        rows={leads}
        rowKey={(lead) => lead.id}
        rowTestId="book-row"
        view={view}
        empty="No leads in the book yet"
        error={{
          message: "The agency's leads could not be loaded.",
          onRetry: () => page.refetch(),
          retrying: page.isFetching,
        }}
        actions={{
          header: 'Actions',
          cell: (lead) =>
            lead.agent && WORKING.includes(lead.status) ? (
              <ReassignDialog lead={lead} members={members} />
            ) : null,
        }}
      />
      {view === 'rows' && total > PAGE_SIZE && (
        <Pager
          range={`Showing ${offset + 1}–${offset + leads.length} of ${total}`}
          offset={offset}
          pageSize={PAGE_SIZE}
          isLast={offset + PAGE_SIZE >= total}
          fetching={page.isFetching}
          onOffset={setOffset}
        />
      )}
    </div>
  );
}
