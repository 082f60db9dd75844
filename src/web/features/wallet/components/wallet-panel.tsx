import type { Wallet } from '@shared/contracts/wallet';
import { formatPriceExact } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { LoadError } from '@web/components/ui/load-error';
import { Progress } from '@web/components/ui/progress';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/lib/utils';
import { AlertTriangle, CheckCircle2, X, XCircle } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { walletQuery } from '../api';
import { priceRangeLabel, topUpReturn, walletHold } from '../wallet-form';
import { AutoRechargeCard } from './auto-recharge-card';
import { TopUpCard } from './top-up-card';
import { WalletEntries } from './wallet-entries';

const PAGE_SIZE = 20;
/** Back from Checkout, the top-up shows once Stripe confirms it: ask again for a while. */
const CONFIRM_POLL_MS = 3_000;
const CONFIRM_POLL_FOR_MS = 60_000;

/**
 * The agent's wallet: the balance (large), what a lead costs and the month's budget spent,
 * Top up and auto-recharge (with Stripe), and the entries, newest first, a page at a time.
 */
export function WalletPanel() {
  const returned = topUpReturn(useSearch());
  const [, navigate] = useLocation();
  const [returnedAt] = useState(() => Date.now());
  const [page, setPage] = useState(1);
  const wallet = useQuery({
    ...walletQuery(page, PAGE_SIZE),
    placeholderData: (previous) => previous,
    refetchInterval: () =>
      returned === 'success' && Date.now() - returnedAt < CONFIRM_POLL_FOR_MS
        ? CONFIRM_POLL_MS
        : false,
  });
  const dismiss = () => navigate(paths.agent.wallet, { replace: true });

  if (wallet.isError && !wallet.data) {
    return (
      <LoadError
        message="Your wallet could not be loaded."
        onRetry={() => wallet.refetch()}
        retrying={wallet.isFetching}
      />
    );
  }
  const data = wallet.data;
  const hold = data ? walletHold(data) : null;
  return (
    <div className="space-y-6">
      {returned === 'success' && (
        <Notice
          tone="ok"
          icon={<CheckCircle2 />}
          title="Thank you: your top-up is paid"
          testId="top-up-success"
          onDismiss={dismiss}
        >
          The amount is added to your balance as soon as Stripe confirms the payment; this page
          updates by itself.
        </Notice>
      )}
      {returned === 'canceled' && (
        <Notice
          tone="muted"
          icon={<XCircle />}
          title="Top-up canceled"
          testId="top-up-canceled"
          onDismiss={dismiss}
        >
          Nothing was charged. Top up whenever you are ready.
        </Notice>
      )}
      {hold && (
        <Notice
          tone="danger"
          icon={<AlertTriangle />}
          title="No leads for now"
          testId="wallet-hold"
        >
          {hold}
        </Notice>
      )}
      <WalletSummary wallet={data} />
      {data &&
        (data.canTopUp ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <TopUpCard />
            <AutoRechargeCard wallet={data} />
          </div>
        ) : (
          <Card data-testid="top-up-card">
            <CardHeader>
              <CardTitle asChild>
                <h2 className="text-base">Add funds</h2>
              </CardTitle>
              <CardDescription>
                Ask an admin to add funds. This portal takes no card payments, so there is no top-up
                or auto-recharge here.
              </CardDescription>
            </CardHeader>
          </Card>
        ))}
      <WalletEntries
        wallet={data}
        page={page}
        pageSize={PAGE_SIZE}
        fetching={wallet.isFetching}
        error={wallet.isError}
        onRetry={() => wallet.refetch()}
        onPage={setPage}
      />
    </div>
  );
}

/** Balance, the price of a lead and the month's budget spent. */
function WalletSummary({ wallet }: { wallet: Wallet | undefined }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card className="md:col-span-1" data-testid="wallet-balance">
        <CardHeader>
          <CardDescription>Balance</CardDescription>
          <CardTitle asChild>
            <p className="font-bold text-4xl tracking-tight">
              {wallet ? formatPriceExact(wallet.balanceCents) : <Skeleton className="h-10 w-36" />}
            </p>
          </CardTitle>
        </CardHeader>
        <CardContent className="text-muted-foreground text-sm">
          {wallet &&
            (wallet.payPerLead
              ? 'Each lead you receive is paid from this balance.'
              : 'Your package is a monthly subscription: its leads are not paid from here.')}
        </CardContent>
      </Card>
      <Card data-testid="wallet-price-range">
        <CardHeader>
          <CardDescription>Price of a lead</CardDescription>
          <CardTitle asChild>
            <p className="font-semibold text-xl">
              {!wallet ? (
                <Skeleton className="h-7 w-40" />
              ) : wallet.priceRange ? (
                priceRangeLabel(wallet.priceRange)
              ) : (
                'No pay-per-lead package'
              )}
            </p>
          </CardTitle>
        </CardHeader>
        <CardContent className="text-muted-foreground text-sm">
          {wallet?.priceRange ? (
            wallet.priceRange.lowestCents === wallet.priceRange.highestCents ? (
              'Per lead, whatever the lead.'
            ) : (
              "Per lead, by your package's price list: the lead's state, age and source."
            )
          ) : (
            <Link href={paths.agent.package} className="text-primary underline underline-offset-4">
              Choose a package
            </Link>
          )}
        </CardContent>
      </Card>
      <Card data-testid="wallet-budget">
        <CardHeader>
          <CardDescription>Monthly budget</CardDescription>
          <CardTitle asChild>
            <p className="font-semibold text-xl">
              {!wallet ? (
                <Skeleton className="h-7 w-40" />
              ) : wallet.budget ? (
                `${formatPriceExact(wallet.budget.spentCents)} of ${formatPriceExact(wallet.budget.monthlyCents)}`
              ) : (
                'No budget'
              )}
            </p>
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-2 text-muted-foreground text-sm">
          {wallet?.budget ? (
            <>
              <Progress
                value={
                  wallet.budget.monthlyCents > 0
                    ? (wallet.budget.spentCents / wallet.budget.monthlyCents) * 100
                    : 100
                }
                aria-label="Monthly budget spent"
                className="h-1.5"
              />
              <p>Spent on leads this month.</p>
            </>
          ) : (
            wallet && (
              <p>
                Set one under Schedule and caps on your{' '}
                <Link
                  href={paths.agent.dashboard}
                  className="text-primary underline underline-offset-4"
                >
                  Dashboard
                </Link>
                .
              </p>
            )
          )}
        </CardContent>
      </Card>
    </div>
  );
}

const TONES = {
  ok: 'border-primary/30 bg-primary/5 [&_[data-icon]]:text-primary',
  danger: 'border-destructive/40 bg-destructive/5 [&_[data-icon]]:text-destructive',
  muted: 'border-border bg-muted/40 [&_[data-icon]]:text-muted-foreground',
} as const;

function Notice({
  tone,
  icon,
  title,
  testId,
  onDismiss,
  children,
}: {
  tone: keyof typeof TONES;
  icon: ReactNode;
  title: string;
  testId: string;
  /** a notice about a visit (back from Checkout) is dismissed; one about the wallet stays */
  onDismiss?: () => void;
  children: ReactNode;
}) {
  return (
    <section
      role={tone === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
      className={cn('flex items-start justify-between gap-4 rounded-xl border p-5', TONES[tone])}
    >
      <div className="flex gap-3">
        <span data-icon className="mt-0.5 shrink-0 [&>svg]:size-5" aria-hidden="true">
          {icon}
        </span>
        <div className="space-y-1">
          <h2 className="font-semibold">{title}</h2>
          <p className="text-muted-foreground text-sm">{children}</p>
        </div>
      </div>
      {onDismiss && (
        <Button
          variant="ghost"
          size="icon"
          className="size-8 shrink-0"
          onClick={onDismiss}
          aria-label="Dismiss"
        >
          <X aria-hidden="true" />
        </Button>
      )}
    </section>
  );
}
