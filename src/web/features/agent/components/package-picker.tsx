import type { SubscriptionSummary } from '@shared/contracts/agent';
import type { Package } from '@shared/contracts/packages';
import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { packagesQuery } from '@web/features/packages/api';
import {
  PublicPackageCard,
  PublicPackageCardSkeleton,
} from '@web/features/packages/components/public-package-card';
import { errorMessage } from '@web/lib/api-client';
import { useLocation } from 'wouter';
import { agentStatsQuery } from '../api';
import { useSubscribe } from '../subscription-api';
import { CurrentSubscriptionCard } from './current-subscription-card';

const SKELETON_CARDS = 3;

/** The active packages as on the landing page, each with Subscribe or Switch. */
export function PackagePicker() {
  const [, navigate] = useLocation();
  const packages = useQuery(packagesQuery);
  const stats = useQuery(agentStatsQuery);
  const subscribe = useSubscribe();
  const subscription = stats.data?.subscription ?? null;
  const hasActive = subscription?.status === 'ACTIVE';
  const active = (packages.data ?? []).filter((pkg) => pkg.active);

  function choose(pkg: Package) {
    const switching = hasActive;
    subscribe.mutate(pkg.id, {
      onSuccess: () => {
        toast(
          switching
            ? { title: 'Package changed', description: `Your package is now ${pkg.name}.` }
            : { title: 'Subscribed', description: `You are now subscribed to ${pkg.name}.` },
        );
        navigate(paths.agent.dashboard);
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Subscription failed',
          description: errorMessage(error, 'Failed to update subscription'),
        });
      },
    });
  }

  const loading = packages.isPending || stats.isPending;
  return (
    <div className="space-y-6">
      {subscription && <CurrentSubscriptionCard subscription={subscription} />}
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3" aria-busy={loading}>
        {loading &&
          Array.from({ length: SKELETON_CARDS }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <PublicPackageCardSkeleton key={index} />
          ))}
        {!loading &&
          active.map((pkg) => (
            <PublicPackageCard
              key={pkg.id}
              pkg={pkg}
              className={isCurrent(subscription, pkg) ? 'ring-2 ring-primary' : undefined}
              action={
                <PackageAction
                  pkg={pkg}
                  subscription={subscription}
                  pending={subscribe.isPending}
                  choosing={subscribe.isPending && subscribe.variables === pkg.id}
                  onChoose={() => choose(pkg)}
                />
              }
            />
          ))}
      </div>
      {!loading && active.length === 0 && (
        <p className="text-muted-foreground">
          {packages.isError
            ? 'Packages could not be loaded. Please try again later.'
            : 'No packages are available right now.'}
        </p>
      )}
    </div>
  );
}

function isCurrent(subscription: SubscriptionSummary | null, pkg: Package): boolean {
  return subscription?.status === 'ACTIVE' && subscription.packageId === pkg.id;
}

function PackageAction({
  pkg,
  subscription,
  pending,
  choosing,
  onChoose,
}: {
  pkg: Package;
  subscription: SubscriptionSummary | null;
  pending: boolean;
  choosing: boolean;
  onChoose: () => void;
}) {
  if (isCurrent(subscription, pkg)) {
    return (
      <Button className="w-full" variant="secondary" disabled>
        Current Package
      </Button>
    );
  }
  const label = subscription?.status === 'ACTIVE' ? 'Switch to This Package' : 'Subscribe';
  return (
    <Button
      className="w-full"
      onClick={onChoose}
      disabled={pending}
      aria-label={`${label}: ${pkg.name}`}
    >
      {choosing && <Spinner />}
      {label}
    </Button>
  );
}
