import type { AgencyMember, MyAgency } from '@shared/contracts/agency';
import { formatConversionRate, quotaSummary } from '@shared/format';
import { formatMinutes } from '@shared/format-minutes';
import { Badge } from '@web/components/ui/badge';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { EmailText } from '@web/components/ui/email-text';
import { SubscriptionStatusBadge } from '@web/features/agent/components/subscription-status-badge';
import type { ReactNode } from 'react';
import { agencyRoleLabel, licensedStatesText, managerName } from '../agency-display';

/** Median minutes to first contact, last 30 days; none yet reads so. */
export function SpeedToLead({ minutes }: { minutes: number | null }) {
  return minutes === null ? (
    <span className="text-muted-foreground">No contact yet</span>
  ) : (
    <span>{formatMinutes(minutes)}</span>
  );
}

function columns(mine: MyAgency): DataColumn<AgencyMember>[] {
  return [
    {
      header: 'Member',
      phone: 'title',
      minWidth: 'min-w-36',
      cell: (member) => (
        <>
          <div className="flex flex-wrap items-center gap-1.5 font-medium">
            {member.name}
            {member.paused && (
              <Badge variant="outline" data-testid="member-paused">
                Paused
              </Badge>
            )}
          </div>
          <div className="font-normal text-muted-foreground text-xs">
            <EmailText email={member.email} />
          </div>
        </>
      ),
    },
    {
      header: 'Role',
      phone: 'badge',
      nowrap: true,
      cell: (member) => (
        <Badge variant={member.role === 'AGENT' ? 'outline' : 'secondary'}>
          {agencyRoleLabel(member.role)}
        </Badge>
      ),
    },
    {
      header: 'Manager',
      minWidth: 'min-w-20',
      cell: (member) => managerName(member, mine.owner),
    },
    {
      header: 'Package',
      minWidth: 'min-w-28',
      cell: (member) => <PackageCell member={member} />,
    },
    {
      header: "Today's Quota",
      minWidth: 'min-w-24',
      cell: (member) => {
        const quota = quotaSummary(member.quotaToday, member.subscriptionStatus);
        return (
          <div>
            <div>{quota.value}</div>
            <div className="text-muted-foreground text-xs">{quota.note}</div>
          </div>
        );
      },
    },
    {
      header: 'Licensed',
      minWidth: 'min-w-16',
      cell: (member) => licensedStatesText(member.licensedStates),
    },
    {
      header: 'Last 30 Days',
      minWidth: 'min-w-28',
      cell: (member) => <ThirtyDays member={member} />,
    },
    {
      header: 'Speed to Lead',
      minWidth: 'min-w-16',
      cell: (member) => <SpeedToLead minutes={member.speedToLeadMinutes} />,
    },
  ];
}

function PackageCell({ member }: { member: AgencyMember }) {
  if (!member.package || !member.subscriptionStatus) {
    return <span className="text-muted-foreground">No package</span>;
  }
  return (
    <div className="space-y-1">
      <div className="font-medium">{member.package.name}</div>
      <div className="flex flex-wrap items-center gap-1">
        <SubscriptionStatusBadge status={member.subscriptionStatus} />
        {member.paidByAgency ? (
          <Badge variant="outline" data-testid="paid-by-agency">
            Paid by agency
          </Badge>
        ) : (
          <span className="text-muted-foreground text-xs">Paid by member</span>
        )}
      </div>
    </div>
  );
}

function ThirtyDays({ member }: { member: AgencyMember }) {
  return (
    <div className="text-sm">
      <div>
        {member.leads30d} {member.leads30d === 1 ? 'lead' : 'leads'}
      </div>
      <div className="text-muted-foreground text-xs">
        {member.converted30d} converted (
        {formatConversionRate(member.converted30d, member.leads30d)})
      </div>
      <div className="text-muted-foreground text-xs">
        {member.returns30d} {member.returns30d === 1 ? 'return' : 'returns'}
      </div>
    </div>
  );
}

/** The agency's members as the caller may see them, with each row's own actions. */
export function MembersTable({
  mine,
  members,
  view,
  error,
  actions,
}: {
  mine: MyAgency;
  members: AgencyMember[];
  view: DataTableProps<AgencyMember>['view'];
  error: DataTableProps<AgencyMember>['error'];
  actions?: (member: AgencyMember) => ReactNode;
}) {
  return (
    <DataTable
      label="Members"
      columns={columns(mine)}
      rows={members}
      rowKey={(member) => member.userId}
      rowTestId="member-row"
      view={view}
      empty="No members yet. Invite your agents."
      error={error}
      actions={actions && { header: 'Actions', cell: actions }}
    />
  );
}
