import type { AgentStats } from '@shared/contracts/agent';
import { formatConversionRate, formatPrice, packagePriceLabel, quotaSummary } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Progress } from '@web/components/ui/progress';
import { Skeleton } from '@web/components/ui/skeleton';
import { CalendarCheck, type LucideIcon, Package, TrendingUp, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { packagesQuery } from '../../packages/api';
import { SubscriptionStatusBadge } from './subscription-status-badge';

function StatCard({
  title,
  icon: Icon,
  testId,
  children,
}: {
  title: string;
  icon: LucideIcon;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle asChild>
          <h2 className="font-medium text-sm">{title}</h2>
        </CardTitle>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </CardHeader>
      <CardContent className="space-y-2">{children}</CardContent>
    </Card>
  );
}

function Value({ children }: { children: ReactNode }) {
  // a long package name wraps rather than being cut to "Medicare S..."
  return <p className="break-words font-bold text-2xl">{children}</p>;
}

function Note({ children }: { children: ReactNode }) {
  return <p className="text-muted-foreground text-xs">{children}</p>;
}

function Loading() {
  return (
    <>
      <Skeleton className="h-8 w-24" />
      <Skeleton className="h-3 w-32" />
    </>
  );
}

/** Current Package, Today's Quota, Total Leads and Conversion Rate (docs/domain.md, Screens). */
export function AgentStatCards({
  stats,
  packagePaidByAgency = false,
}: {
  stats: AgentStats | undefined;
  /** an agency pays it: the member cannot change it (docs/domain.md, Agencies) */
  packagePaidByAgency?: boolean;
}) {
  const subscription = stats?.subscription;
  // the package as offered says how it is priced: a month, or per lead from the wallet
  const packages = useQuery({ ...packagesQuery, enabled: !!subscription });
  const offered = packages.data?.find((pkg) => pkg.id === subscription?.packageId);
  const perLead = offered?.pricing === 'PER_LEAD';
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      <StatCard title="Current Package" icon={Package} testId="card-current-package">
        {!stats ? (
          <Loading />
        ) : subscription ? (
          <>
            <Value>{subscription.package.name}</Value>
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-muted-foreground text-sm">
                {offered
                  ? packagePriceLabel(offered)
                  : `${formatPrice(subscription.package.priceMonthlyCents)}/month`}
              </span>
              <SubscriptionStatusBadge status={subscription.status} />
            </div>
            {packagePaidByAgency ? (
              <Note>Paid by your agency</Note>
            ) : (
              <div className="flex flex-wrap gap-x-3">
                <Link
                  href={paths.agent.package}
                  className="text-primary text-xs underline-offset-4 hover:underline"
                >
                  Change package
                </Link>
                {perLead && (
                  <Link
                    href={paths.agent.wallet}
                    className="text-primary text-xs underline-offset-4 hover:underline"
                  >
                    Wallet
                  </Link>
                )}
              </div>
            )}
          </>
        ) : (
          <>
            <Value>No package</Value>
            <Link
              href={paths.agent.package}
              className="text-primary text-xs underline-offset-4 hover:underline"
            >
              Choose a package
            </Link>
          </>
        )}
      </StatCard>

      <StatCard title="Today's Quota" icon={CalendarCheck} testId="card-today-quota">
        {!stats ? <Loading /> : <TodayQuota stats={stats} />}
      </StatCard>

      <StatCard title="Total Leads" icon={Users} testId="card-total-leads">
        {!stats ? (
          <Loading />
        ) : (
          <>
            <Value>{stats.totalLeads}</Value>
            <Note>All time assigned</Note>
          </>
        )}
      </StatCard>

      <StatCard title="Conversion Rate" icon={TrendingUp} testId="card-conversion-rate">
        {!stats ? (
          <Loading />
        ) : (
          <>
            <Value>{formatConversionRate(stats.convertedLeads, stats.totalLeads)}</Value>
            <Note>
              {stats.convertedLeads} of {stats.totalLeads} converted
            </Note>
          </>
        )}
      </StatCard>
    </div>
  );
}

/** Assigned / limit with its bar while subscribed; N/A and the reason otherwise (no "0 / 0"). */
function TodayQuota({ stats }: { stats: AgentStats }) {
  const quota = quotaSummary(stats.todayQuota, stats.subscription?.status);
  return (
    <>
      <Value>{quota.value}</Value>
      {quota.percent !== null && (
        <Progress value={quota.percent} aria-label="Today's quota used" className="h-1.5" />
      )}
      <Note>{quota.note}</Note>
    </>
  );
}
