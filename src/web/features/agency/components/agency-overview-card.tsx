import type { MyAgency } from '@shared/contracts/agency';
import { Badge } from '@web/components/ui/badge';
import { Card, CardContent } from '@web/components/ui/card';
import { agencyRoleLabel } from '../agency-display';
import { LeaveAgencyButton } from './leave-agency-button';

/** The member's agency at a glance: its name and status, their role, owner and manager; Leave. */
export function AgencyOverviewCard({ mine }: { mine: MyAgency }) {
  const manager = mine.role === 'OWNER' ? null : (mine.manager ?? mine.owner);
  return (
    <Card className="gap-4 py-5" data-testid="agency-overview">
      <CardContent className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="break-words font-semibold text-xl">{mine.agency.name}</h2>
            <Badge variant="secondary" data-testid="agency-role">
              {agencyRoleLabel(mine.role)}
            </Badge>
            {mine.agency.status === 'SUSPENDED' && (
              <Badge variant="destructive" data-testid="agency-suspended">
                Suspended
              </Badge>
            )}
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Owner</dt>
            <dd>{mine.owner.name}</dd>
            {manager && (
              <>
                <dt className="text-muted-foreground">Your manager</dt>
                <dd data-testid="agency-manager">{manager.name}</dd>
              </>
            )}
            {mine.role !== 'AGENT' && (
              <>
                <dt className="text-muted-foreground">Daily cap</dt>
                <dd data-testid="agency-daily-cap">
                  {mine.agency.dailyCap === null ? 'None' : `${mine.agency.dailyCap} leads a day`}
                </dd>
                <dt className="text-muted-foreground">Reclaim</dt>
                <dd>
                  {mine.agency.reclaimAfterMinutes === null
                    ? 'Off'
                    : `After ${mine.agency.reclaimAfterMinutes} minutes not worked`}
                </dd>
              </>
            )}
            {mine.paidByAgency && (
              <>
                <dt className="text-muted-foreground">Your package</dt>
                <dd>Paid by your agency</dd>
              </>
            )}
          </dl>
          {mine.role === 'AGENT' && (
            <p className="text-muted-foreground text-sm">
              Your agency sees the leads it gives you and how you work them.
            </p>
          )}
          {mine.agency.status === 'SUSPENDED' && (
            <p className="text-destructive text-sm">
              The agency is suspended: its members get no leads and the packages it pays are on
              hold.
            </p>
          )}
        </div>
        <div className="shrink-0">
          <LeaveAgencyButton mine={mine} />
        </div>
      </CardContent>
    </Card>
  );
}
