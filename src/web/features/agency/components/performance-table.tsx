import type { AgencyMember } from '@shared/contracts/agency';
import { formatConversionRate } from '@shared/format';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { agencyRoleLabel } from '../agency-display';
import { SpeedToLead } from './members-table';

const COLUMNS: DataColumn<AgencyMember>[] = [
  {
    header: 'Member',
    phone: 'title',
    minWidth: 'min-w-32',
    cell: (member) => (
      <>
        <div className="font-medium">{member.name}</div>
        <div className="font-normal text-muted-foreground text-xs">
          {agencyRoleLabel(member.role)}
        </div>
      </>
    ),
  },
  {
    header: 'Speed to Lead (median)',
    nowrap: true,
    cell: (member) => <SpeedToLead minutes={member.speedToLeadMinutes} />,
  },
  { header: 'Leads', nowrap: true, align: 'right', cell: (member) => member.leads30d },
  { header: 'Converted', nowrap: true, align: 'right', cell: (member) => member.converted30d },
  {
    header: 'Conversion Rate',
    nowrap: true,
    align: 'right',
    cell: (member) => formatConversionRate(member.converted30d, member.leads30d),
  },
  { header: 'Returns', nowrap: true, align: 'right', cell: (member) => member.returns30d },
];

/** Each member's last 30 days: how fast they reach a lead, how many they got and converted. */
export function PerformanceTable({
  members,
  view,
  error,
}: {
  members: AgencyMember[];
  view: DataTableProps<AgencyMember>['view'];
  error: DataTableProps<AgencyMember>['error'];
}) {
  // the members who convert most first, then the busiest
  const sorted = [...members].sort(
    (a, b) => b.converted30d - a.converted30d || b.leads30d - a.leads30d,
  );
  return (
    <DataTable
      label="Performance"
      columns={COLUMNS}
      rows={sorted}
      rowKey={(member) => member.userId}
      rowTestId="performance-row"
      view={view}
      empty="No members yet"
      error={error}
    />
  );
}
