import type { SubscriptionSummary } from '@shared/contracts/agent';
import type { Package } from '@shared/contracts/packages';
import { categoryLabel, formatPrice, packagePriceLabel } from '@shared/format';
import { paths } from '@web/app/paths';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Link } from 'wouter';
import { CancelSubscriptionButton } from './cancel-subscription-button';
import { SubscriptionStatusBadge } from './subscription-status-badge';

export function CurrentSubscriptionCard({
  subscription,
  offered,
}: {
  subscription: SubscriptionSummary;
  /** the package as offered, which says how it is priced (a month, or per lead) */
  offered?: Package;
}) {
  const { package: pkg } = subscription;
  const perLead = offered?.pricing === 'PER_LEAD';
  return (
    <Card data-testid="current-subscription">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-lg">Your subscription</h2>
        </CardTitle>
        <CardDescription>
          {subscription.status !== 'ACTIVE' ? (
            'Your subscription is not active: no new leads are assigned to you.'
          ) : perLead ? (
            <>
              Leads matching your preferences are assigned to you every day, each paid from your{' '}
              <Link href={paths.agent.wallet} className="text-primary underline underline-offset-4">
                wallet
              </Link>
              .
            </>
          ) : (
            'Leads matching your preferences are assigned to you every day.'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-4">
        <div className="space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-semibold text-xl">{pkg.name}</p>
            <SubscriptionStatusBadge status={subscription.status} />
          </div>
          <p className="text-muted-foreground text-sm">
            {offered ? packagePriceLabel(offered) : `${formatPrice(pkg.priceMonthlyCents)}/month`} ·{' '}
            {categoryLabel(pkg.category)} · {perLead ? 'up to ' : ''}
            {pkg.leadsPerDay} leads per day
          </p>
        </div>
        {subscription.status === 'ACTIVE' && <CancelSubscriptionButton packageName={pkg.name} />}
      </CardContent>
    </Card>
  );
}
