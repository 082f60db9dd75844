import type { SubscriptionSummary } from '@shared/contracts/agent';
import type { Package } from '@shared/contracts/packages';
import { subscriptionStatusLabel } from '@shared/format';

import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { LoadError } from '@web/components/ui/load-error';
import { toast } from '@web/components/ui/use-toast';
import { packagesQuery } from '@web/features/packages/api';
import {
  PublicPackageCard,
  PublicPackageCardSkeleton,
} from '@web/features/packages/components/public-package-card';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { agentBillingQuery } from '../../billing/api';
import { BillingStatusCard } from '../../billing/components/billing-status-card';
import { agentStatsQuery } from '../api';
import { subscribeDetail, subscribeQuestion } from '../subscribe-question';
import { useSubscribe } from '../subscription-api';
import { CurrentSubscriptionCard } from './current-subscription-card';

const SKELETON_CARDS = 3;

/** The active packages as on the landing page, each with Subscribe or Switch (confirmed first). */
export function PackagePicker() {
  const [, navigate] = useLocation();
  const packages = useQuery(packagesQuery);
  const stats = useQuery(agentStatsQuery);
  const subscribe = useSubscribe();
  const billing = useQuery(agentBillingQuery);
  const paysThroughStripe = billing.data !== undefined && billing.data.state !== 'OFF';
  const [confirming, setConfirming] = useState<Package | null>(null);
  const subscription = stats.data?.subscription ?? null;
  const hasActive = subscription?.status === 'ACTIVE';
  const active = (packages.data ?? []).filter((pkg) => pkg.active);

  function choose(pkg: Package) {
    const switching = hasActive;
    subscribe.mutate(pkg.id, {
      onSuccess: (answer) => {
        if ('checkoutUrl' in answer) {
          // Stripe Billing: the agent pays on Stripe's Checkout page, which sends them back here
          window.location.assign(answer.checkoutUrl);
          return;
        }
        setConfirming(null);
        if (answer.status !== 'ACTIVE') {
          // a status the agent cannot lift (docs/domain.md, Subscriptions): the switch is kept
          toast({
            title: 'Package changed',
            description: `Your package is now ${pkg.name}; your subscription is still ${subscriptionStatusLabel(answer.status).toLowerCase()}.`,
          });
          navigate(paths.agent.package);
          return;
        }
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

  if (packages.isError || stats.isError) {
    return (
      <LoadError
        message="The packages could not be loaded."
        onRetry={() => {
          if (packages.isError) packages.refetch();
          if (stats.isError) stats.refetch();
        }}
        retrying={packages.isFetching || stats.isFetching}
      />
    );
  }

  const loading = packages.isPending || stats.isPending;
  return (
    <div className="space-y-6">
      <BillingStatusCard />
      {subscription && (
        <CurrentSubscriptionCard
          subscription={subscription}
          offered={packages.data?.find((pkg) => pkg.id === subscription.packageId)}
        />
      )}
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
                  awaitingCard={billing.data?.state === 'PAST_DUE'}
                  onChoose={() => setConfirming(pkg)}
                />
              }
            />
          ))}
      </div>
      {!loading && active.length === 0 && (
        <p className="text-muted-foreground">No packages are available right now.</p>
      )}
      <ConfirmSubscription
        pkg={confirming}
        current={hasActive ? subscription : null}
        pending={subscribe.isPending}
        paysThroughStripe={paysThroughStripe}
        onConfirm={choose}
        onClose={() => setConfirming(null)}
      />
    </div>
  );
}

/** "Subscribe to Gold for $499.00/month?" (or Switch), asked once, before anything is sent. */
function ConfirmSubscription({
  pkg,
  current,
  pending,
  paysThroughStripe,
  onConfirm,
  onClose,
}: {
  pkg: Package | null;
  /** Stripe Billing: a new subscription is paid on Stripe's Checkout page first */
  paysThroughStripe: boolean;
  /** the active subscription a switch replaces */
  current: SubscriptionSummary | null;
  pending: boolean;
  onConfirm: (pkg: Package) => void;
  onClose: () => void;
}) {
  // the last package asked about stays on screen while the dialog fades out
  const [shown, setShown] = useState(pkg);
  if (pkg && pkg !== shown) setShown(pkg);
  if (!shown) return null;
  const switching = current !== null;
  return (
    <ConfirmDialog
      open={pkg !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={subscribeQuestion(shown, switching)}
      description={subscribeDetail(shown, current?.package.name ?? null)}
      confirmLabel={
        switching
          ? 'Switch Package'
          : // a pay-per-lead package starts at once: its leads are paid from the wallet
            paysThroughStripe && shown.pricing !== 'PER_LEAD'
            ? 'Continue to Payment'
            : 'Subscribe'
      }
      cancelLabel={current ? `Keep ${current.package.name}` : 'Not Now'}
      onConfirm={() => onConfirm(shown)}
      pending={pending}
      testId="confirm-subscription"
    />
  );
}

function isCurrent(subscription: SubscriptionSummary | null, pkg: Package): boolean {
  return subscription?.status === 'ACTIVE' && subscription.packageId === pkg.id;
}

function PackageAction({
  pkg,
  subscription,
  awaitingCard = false,
  onChoose,
}: {
  pkg: Package;
  subscription: SubscriptionSummary | null;
  /** Stripe Billing: the last payment failed; the card is updated in the portal, not here */
  awaitingCard?: boolean;
  onChoose: () => void;
}) {
  if (isCurrent(subscription, pkg) || (awaitingCard && subscription?.packageId === pkg.id)) {
    return (
      <Button className="w-full" variant="secondary" disabled>
        Current Package
      </Button>
    );
  }
  const label = subscription?.status === 'ACTIVE' ? 'Switch to This Package' : 'Subscribe';
  return (
    <Button className="w-full" onClick={onChoose} aria-label={`${label}: ${pkg.name}`}>
      {label}
    </Button>
  );
}
