import type { AgentBilling } from '@shared/contracts/billing';
import { DEFAULT_BUSINESS_TIME_ZONE, formatPriceExact } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { AlertTriangle, CheckCircle2, Clock, CreditCard, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { agentBillingQuery, useOpenBillingPortal } from '../api';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: DEFAULT_BUSINESS_TIME_ZONE,
});

/** "Dec 24, 2026" */
export function formatBillingDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** How Checkout sent the agent back: ?checkout=success or ?checkout=canceled. */
function useCheckoutReturn(): 'success' | 'canceled' | null {
  const checkout = new URLSearchParams(useSearch()).get('checkout');
  return checkout === 'success' || checkout === 'canceled' ? checkout : null;
}

/**
 * The billing state on the package screen (docs/domain.md, Billing) and what to do about it: a failed payment
 * (update the card in Stripe's portal), a Checkout awaited, the next renewal, "Manage billing";
 * and the confirmation when Checkout sends the agent back. Nothing without Stripe.
 */
export function BillingStatusCard() {
  const returned = useCheckoutReturn();
  const billing = useQuery({
    ...agentBillingQuery,
    // back from Checkout and not yet confirmed by Stripe's webhooks: ask again shortly
    refetchInterval: (query) =>
      returned === 'success' && query.state.data?.state === 'AWAITING_CHECKOUT' ? 2_000 : false,
  });
  const portal = useOpenBillingPortal();
  const data = billing.data;
  if (!data || data.state === 'OFF') return null;

  const manage = (label: string, variant: 'default' | 'outline' = 'outline') => (
    <Button
      variant={variant}
      className="shrink-0"
      disabled={portal.isPending}
      onClick={() =>
        portal.mutate(undefined, {
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'Billing unavailable',
              description: errorMessage(error, 'The billing portal could not be opened'),
            }),
        })
      }
    >
      <CreditCard aria-hidden="true" />
      {label}
    </Button>
  );

  return (
    <div className="space-y-4">
      {returned === 'success' && <CheckoutReturned billing={data} />}
      {returned === 'canceled' && data.state !== 'ACTIVE' && (
        <Notice
          tone="muted"
          icon={<XCircle />}
          title="Checkout canceled"
          testId="checkout-canceled"
        >
          Nothing was charged. Choose a package below whenever you are ready.
        </Notice>
      )}
      <BillingState billing={data} returned={returned} manage={manage} />
    </div>
  );
}

function BillingState({
  billing,
  returned,
  manage,
}: {
  billing: AgentBilling;
  returned: 'success' | 'canceled' | null;
  manage: (label: string, variant?: 'default' | 'outline') => ReactNode;
}) {
  const invoice = billing.lastInvoice;
  const lastInvoice = invoice && (
    <>
      Last invoice: {formatPriceExact(invoice.amountCents)}{' '}
      {invoice.status === 'paid' ? 'paid' : 'failed'} on {formatBillingDate(invoice.at)}.
    </>
  );
  switch (billing.state) {
    case 'PAST_DUE':
      return (
        <Notice
          tone="danger"
          icon={<AlertTriangle />}
          title="Your last payment failed: update your card"
          testId="billing-past-due"
          action={manage('Update card', 'default')}
        >
          No new leads are assigned to you until the payment goes through. Stripe retries the
          payment once your card is updated. {lastInvoice}
        </Notice>
      );
    case 'AWAITING_CHECKOUT':
      if (returned) return null;
      return (
        <Notice
          tone="muted"
          icon={<Clock />}
          title="Waiting for your payment"
          testId="billing-awaiting"
        >
          You started a checkout that has not been paid yet. Your package starts as soon as the
          payment goes through, or choose a package below to start again.
        </Notice>
      );
    case 'ACTIVE':
      return (
        <Notice
          tone="ok"
          icon={<CreditCard />}
          title={
            billing.currentPeriodEnd
              ? `Paid through Stripe: renews on ${formatBillingDate(billing.currentPeriodEnd)}`
              : 'Paid through Stripe'
          }
          testId="billing-active"
          action={billing.canManage ? manage('Manage billing') : undefined}
        >
          Change your card, see invoices or cancel in the billing portal. {lastInvoice}
        </Notice>
      );
    case 'CANCELED':
      return (
        <Notice
          tone="muted"
          icon={<XCircle />}
          title="Your paid subscription has ended"
          testId="billing-canceled"
          action={billing.canManage ? manage('Manage billing') : undefined}
        >
          Choose a package below to subscribe again. {lastInvoice}
        </Notice>
      );
    case 'SUSPENDED':
      return (
        <Notice
          tone="danger"
          icon={<AlertTriangle />}
          title="Your subscription is on hold"
          testId="billing-suspended"
          action={billing.canManage ? manage('Manage billing') : undefined}
        >
          An administrator has put your subscription on hold. Contact your agency to lift it.
        </Notice>
      );
    default:
      return null;
  }
}

function CheckoutReturned({ billing }: { billing: AgentBilling }) {
  if (billing.state === 'ACTIVE') {
    return (
      <Notice
        tone="ok"
        icon={<CheckCircle2 />}
        title="Payment received: your package is active"
        testId="checkout-confirmed"
        action={
          <Button asChild className="shrink-0">
            <Link href={paths.agent.dashboard}>Go to Dashboard</Link>
          </Button>
        }
      >
        Leads matching your preferences are assigned to you from now on.
      </Notice>
    );
  }
  if (billing.state === 'AWAITING_CHECKOUT') {
    return (
      <Notice
        tone="muted"
        icon={<Clock />}
        title="Confirming your payment…"
        testId="checkout-confirming"
      >
        Stripe is confirming your payment. This page updates by itself.
      </Notice>
    );
  }
  return null;
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
  action,
  testId,
  children,
}: {
  tone: keyof typeof TONES;
  icon: ReactNode;
  title: string;
  action?: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section
      role={tone === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
      className={cn(
        'flex flex-col gap-4 rounded-xl border p-5 sm:flex-row sm:items-center sm:justify-between',
        TONES[tone],
      )}
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
      {action}
    </section>
  );
}
