import type { SubscriptionSummary } from '@shared/contracts/agent';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { PackageOpen } from 'lucide-react';
import { Link } from 'wouter';

/**
 * Offered on the dashboard while the agent has no active subscription (after the first login
 * in particular): without one, no leads are assigned.
 */
export function ChoosePackageCallout({
  subscription,
}: {
  subscription: SubscriptionSummary | null | undefined;
}) {
  if (subscription?.status === 'ACTIVE') return null;
  return (
    <section
      aria-labelledby="choose-package-title"
      data-testid="choose-package-callout"
      className="flex flex-col gap-4 rounded-xl border border-primary/30 bg-primary/5 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-3">
        <PackageOpen className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <div className="space-y-1">
          <h2 id="choose-package-title" className="font-semibold">
            {subscription ? 'Your subscription is not active' : 'Choose your package'}
          </h2>
          <p className="text-muted-foreground text-sm">
            {subscription
              ? 'No new leads are assigned to you until you subscribe to a package again.'
              : 'Pick a package to start receiving fresh, exclusive leads every day.'}
          </p>
        </div>
      </div>
      <Button asChild className="shrink-0">
        <Link href={paths.agent.package}>Choose a Package</Link>
      </Button>
    </section>
  );
}
