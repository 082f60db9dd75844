import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Badge } from '@web/components/ui/badge';
import { Card, CardContent } from '@web/components/ui/card';
import { Building2 } from 'lucide-react';
import { Link } from 'wouter';
import { membershipLine } from '../agency-display';
import { myAgencyQuery } from '../api';

/**
 * The dashboard's line about the member's agency: its name, their manager, and whether the
 * agency pays their package. Nothing while it loads, when they are in none, or when it failed
 * (the Agency screen says why).
 */
export function AgencyMembershipCard() {
  const { data: mine } = useQuery(myAgencyQuery);
  if (!mine) return null;
  return (
    <Card className="py-4" data-testid="agency-membership">
      <CardContent className="flex items-start gap-3">
        <Building2 className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-2">
          <p className="min-w-0 break-words font-medium">{membershipLine(mine)}</p>
          {mine.paidByAgency && <Badge variant="secondary">Package paid by your agency</Badge>}
          {mine.agency.status === 'SUSPENDED' && <Badge variant="destructive">Suspended</Badge>}
          <Link
            href={paths.agent.agency}
            className="text-primary text-sm underline underline-offset-4 sm:ml-auto"
          >
            Open your agency
          </Link>
        </div>
      </CardContent>
    </Card>
  );
}
