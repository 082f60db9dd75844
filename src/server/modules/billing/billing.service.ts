import type Stripe from 'stripe';
import type { AgentBilling } from '../../../shared/contracts/billing';
import type { SubscriptionStatus } from '../../../shared/domain';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import {
  applyBillingStatus,
  type BillingFields,
  type CheckoutStarted,
  type SubscriptionBilling,
  writeBillingFields,
} from '../subscriptions/subscriptions.service';
import { StripeSeats, type Warn } from './agency-seats.service';
import {
  type BillingRow,
  clearPendingCheckout,
  eventSeen,
  findAgentContact,
  findBillingRow,
  findCustomer,
  findPackageIdByPrice,
  findUserIdByCustomer,
  findUserIdBySubscription,
  insertCustomer,
  packageExists,
  recordEvent,
  setPendingCheckout,
} from './billing.repository';
import { ensurePackagePrice } from './package-price';
import { createStripeClient, type StripeSettings, stripeSettings } from './stripe-client';
import {
  fromUnix,
  idOf,
  invoiceSubscriptionId,
  isBehind,
  statusOf,
  viaStripe,
} from './stripe-events';
import { StripeWalletPayments } from './wallet-payments.service';

/** The agent's package screen (the web app's paths.agent.package): Checkout and the portal return here. */
const PACKAGE_SCREEN = '/dashboard/package';
/**
 * How long a Checkout session stays open (Stripe's least is 30 minutes): an abandoned one stops
 * being shown as awaited after that, and Stripe sends checkout.session.expired.
 */
const CHECKOUT_AWAITED_MS = 60 * 60 * 1000;

/** Stripe Billing as the app uses it (docs/domain.md, Billing); null when Stripe is not configured. */
export interface Billing extends SubscriptionBilling {
  portal(agentId: number): Promise<{ url: string }>;
  /** Verifies and applies one webhook delivery (raw body, Stripe-Signature header). */
  handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome>;
  /** The agencies' seats (docs/domain.md, Agencies, "Paying with Stripe"). */
  readonly seats: StripeSeats;
  /** The wallets' top-ups, auto-recharges and refunds (docs/domain.md, The wallet). */
  readonly wallet: StripeWalletPayments;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

export function createBilling(db: Db, config: AppConfig, warn: Warn = () => {}): Billing | null {
  const settings = stripeSettings(config);
  return settings ? new StripeBilling(db, config.PUBLIC_URL, settings, warn) : null;
}

/** The agent's billing state for the package screen (state OFF without Stripe). */
export async function findAgentBilling(
  db: Db,
  billing: Billing | null,
  agentId: number,
): Promise<AgentBilling> {
  const off: AgentBilling = {
    state: 'OFF',
    pendingPackageId: null,
    currentPeriodEnd: null,
    canManage: false,
    lastInvoice: null,
  };
  if (!billing) return off;
  const [row, customer] = await Promise.all([
    findBillingRow(db, agentId),
    findCustomer(db, agentId),
  ]);
  const awaited =
    customer?.checkoutSessionId && customer.checkoutStartedAt
      ? Date.now() - customer.checkoutStartedAt.getTime() < CHECKOUT_AWAITED_MS
      : false;
  return {
    state: billingState(row, awaited),
    pendingPackageId: awaited ? (customer?.checkoutPackageId ?? null) : null,
    currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    canManage: customer !== null,
    lastInvoice:
      row?.lastInvoiceAt &&
      row.lastInvoiceAmountCents !== null &&
      (row.lastInvoiceStatus === 'paid' || row.lastInvoiceStatus === 'failed')
        ? {
            status: row.lastInvoiceStatus,
            amountCents: row.lastInvoiceAmountCents,
            at: row.lastInvoiceAt.toISOString(),
            url: row.lastInvoiceUrl,
          }
        : null,
  };
}

function billingState(row: BillingRow | null, awaited: boolean): AgentBilling['state'] {
  if (row?.status === 'INACTIVE') return 'SUSPENDED';
  if (row?.status === 'CANCELED' && row.statusSetBy === 'ADMIN') return 'SUSPENDED';
  if (row?.status === 'PAST_DUE') return 'PAST_DUE';
  if (row?.status === 'ACTIVE' && row.stripeSubscriptionId) return 'ACTIVE';
  if (awaited) return 'AWAITING_CHECKOUT';
  if (row?.status === 'ACTIVE') return 'ACTIVE';
  if (row?.status === 'CANCELED') return 'CANCELED';
  return 'NONE';
}

/** What one event asks of the agent's subscription. */
interface Change {
  stripeSubscriptionId: string;
  /** the subscription object, when the event carries it or it was retrieved */
  subscription?: Stripe.Subscription;
  /** the status the event sets; undefined: the subscription object's own */
  status?: SubscriptionStatus | null;
  /** a new Stripe subscription may replace one that is not live (Checkout, created, invoices) */
  mayAdopt: boolean;
  invoice?: Stripe.Invoice & { outcome: 'paid' | 'failed' };
  /** the Checkout session it completes */
  checkoutSessionId?: string;
}

class StripeBilling implements Billing {
  private readonly stripe: Stripe;
  readonly seats: StripeSeats;
  readonly wallet: StripeWalletPayments;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly settings: StripeSettings,
    warn: Warn,
  ) {
    this.stripe = createStripeClient(settings);
    this.seats = new StripeSeats(db, this.stripe, publicUrl, (id) => this.cancel(id), warn);
    this.wallet = new StripeWalletPayments(
      db,
      this.stripe,
      publicUrl,
      (id) => this.ensureCustomer(id),
      warn,
    );
  }

  private ensurePrice(packageId: number): Promise<string> {
    return ensurePackagePrice(this.db, this.stripe, packageId);
  }

  private async ensureCustomer(agentId: number): Promise<string> {
    const existing = await findCustomer(this.db, agentId);
    if (existing) return existing.stripeCustomerId;
    const contact = await findAgentContact(this.db, agentId);
    if (!contact) throw notFound('Agent');
    const customer = await this.stripe.customers.create({
      email: contact.email,
      name: contact.name,
      metadata: { userId: String(agentId) },
    });
    return insertCustomer(this.db, agentId, customer.id);
  }

  startCheckout(agentId: number, packageId: number): Promise<CheckoutStarted> {
    return viaStripe(() => this.checkout(agentId, packageId));
  }

  private async checkout(agentId: number, packageId: number): Promise<CheckoutStarted> {
    const [customer, price] = await Promise.all([
      this.ensureCustomer(agentId),
      this.ensurePrice(packageId),
    ]);
    const metadata = { userId: String(agentId), packageId: String(packageId) };
    const back = `${this.publicUrl}${PACKAGE_SCREEN}`;
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(agentId),
      line_items: [{ price, quantity: 1 }],
      success_url: `${back}?checkout=success`,
      cancel_url: `${back}?checkout=canceled`,
      metadata,
      subscription_data: { metadata },
      expires_at: Math.floor((Date.now() + CHECKOUT_AWAITED_MS) / 1000),
    });
    if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', 'Stripe gave no Checkout page');
    await setPendingCheckout(this.db, agentId, session.id, packageId);
    return { checkoutUrl: session.url };
  }

  switchPrice(agentId: number, stripeSubscriptionId: string, packageId: number) {
    return viaStripe(() => this.movePrice(agentId, stripeSubscriptionId, packageId));
  }

  /**
   * The switch as a pending update (Stripe's `pending_if_incomplete`): the proration is invoiced
   * at once (`always_invoice`) and the new price takes hold only if that invoice is paid; if the
   * card on file does not pay it, the subscription keeps its price and carries `pending_update`,
   * and the invoice's page is where the agent pays. (A pending update takes no metadata: the
   * price's own metadata names the package.)
   */
  private async movePrice(
    agentId: number,
    stripeSubscriptionId: string,
    packageId: number,
  ): Promise<CheckoutStarted | null> {
    const price = await this.ensurePrice(packageId);
    const subscription = await this.stripe.subscriptions.retrieve(stripeSubscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw conflict('The Stripe subscription has no item to switch');
    if (item.price.id !== price) {
      const updated = await this.stripe.subscriptions.update(stripeSubscriptionId, {
        items: [{ id: item.id, price }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
        expand: ['latest_invoice'],
      });
      if (updated.pending_update) {
        const invoice = updated.latest_invoice;
        const url = typeof invoice === 'object' ? invoice?.hosted_invoice_url : null;
        if (!url) throw new AppError('SERVICE_UNAVAILABLE', 'Stripe gave no invoice to pay');
        return { checkoutUrl: url };
      }
    }
    await writeBillingFields(this.db, agentId, { stripePriceId: price });
    return null;
  }

  /**
   * Ends the Stripe subscription now, with a last invoice for anything not yet invoiced (pending
   * proration items: `invoice_now`). The time left in the month is not credited (`prorate`
   * false): a month is paid in advance and cancelling stops the next one.
   */
  async cancel(stripeSubscriptionId: string): Promise<void> {
    await viaStripe(() =>
      this.stripe.subscriptions.cancel(stripeSubscriptionId, { invoice_now: true, prorate: false }),
    );
  }

  async portal(agentId: number): Promise<{ url: string }> {
    const customer = await findCustomer(this.db, agentId);
    if (!customer) throw conflict('No billing account yet: choose a package first');
    const session = await viaStripe(() =>
      this.stripe.billingPortal.sessions.create({
        customer: customer.stripeCustomerId,
        return_url: `${this.publicUrl}${PACKAGE_SCREEN}`,
      }),
    );
    return { url: session.url };
  }

  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        this.settings.webhookSecret,
      );
    } catch {
      throw badRequest('Invalid Stripe signature');
    }
    if (await eventSeen(this.db, event.id)) return 'duplicate';
    // a wallet's top-up, auto-recharge or refund (wallet-payments.service)
    if (this.wallet.owns(event)) return this.wallet.apply(event);
    // an agency's subscription: its seats' billing (agency-seats.service)
    const agencyChange = await viaStripe(() => this.seats.changeOf(event));
    if (agencyChange) return this.seats.apply(event, agencyChange);
    if (event.type === 'checkout.session.expired') return this.checkoutExpired(event);
    const change = await viaStripe(() => this.changeOf(event));
    const agentId = change ? await this.agentOf(change, event) : null;
    const created = new Date(event.created * 1000);
    return this.db.transaction(async (tx) => {
      if (!(await recordEvent(tx, event.id, event.type, created))) return 'duplicate';
      if (!change || agentId === null) return 'ignored';
      return this.apply(tx, agentId, change, created);
    });
  }

  /** An abandoned Checkout: no longer awaited. */
  private async checkoutExpired(event: Stripe.CheckoutSessionExpiredEvent) {
    const session = event.data.object;
    const customer = idOf(session.customer);
    const agentId = customer ? await findUserIdByCustomer(this.db, customer) : null;
    return this.db.transaction(async (tx): Promise<WebhookOutcome> => {
      const created = new Date(event.created * 1000);
      if (!(await recordEvent(tx, event.id, event.type, created))) return 'duplicate';
      if (agentId === null) return 'ignored';
      await clearPendingCheckout(tx, agentId, session.id);
      return 'applied';
    });
  }

  /** What the event asks, read before the transaction (it may call Stripe). */
  private async changeOf(event: Stripe.Event): Promise<Change | null> {
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const id = idOf(session.subscription);
        if (session.mode !== 'subscription' || !id) return null;
        return {
          stripeSubscriptionId: id,
          subscription: await this.stripe.subscriptions.retrieve(id),
          mayAdopt: true,
          checkoutSessionId: session.id,
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
        return {
          stripeSubscriptionId: event.data.object.id,
          subscription: event.data.object,
          mayAdopt: event.type === 'customer.subscription.created',
        };
      case 'customer.subscription.deleted':
        return {
          stripeSubscriptionId: event.data.object.id,
          subscription: event.data.object,
          status: 'CANCELED',
          mayAdopt: false,
        };
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const id = invoiceSubscriptionId(invoice);
        if (!id) return null;
        // an invoice may arrive before the events that tell of its subscription: ask Stripe
        const known = await findUserIdBySubscription(this.db, id);
        // a switch's invoice that failed leaves the subscription as it was (a pending update):
        // it is recorded as the last invoice and changes no status
        const switchFailed =
          event.type === 'invoice.payment_failed' &&
          invoice.billing_reason === 'subscription_update';
        return {
          stripeSubscriptionId: id,
          ...(known === null ? { subscription: await this.stripe.subscriptions.retrieve(id) } : {}),
          status: switchFailed ? null : event.type === 'invoice.paid' ? 'ACTIVE' : 'PAST_DUE',
          mayAdopt: true,
          invoice: { ...invoice, outcome: event.type === 'invoice.paid' ? 'paid' : 'failed' },
        };
      }
      default:
        return null;
    }
  }

  /** The agent: by the subscription we know, else by our Stripe customer, else the metadata. */
  private async agentOf(change: Change, event: Stripe.Event): Promise<number | null> {
    const bySubscription = await findUserIdBySubscription(this.db, change.stripeSubscriptionId);
    if (bySubscription !== null) return bySubscription;
    const object = event.data.object as { customer?: string | { id: string } | null };
    const customer = idOf(change.subscription?.customer ?? object.customer);
    if (customer) {
      const byCustomer = await findUserIdByCustomer(this.db, customer);
      if (byCustomer !== null) return byCustomer;
    }
    const fromMetadata = Number(change.subscription?.metadata?.userId);
    return Number.isInteger(fromMetadata) && fromMetadata > 0 ? fromMetadata : null;
  }

  /** The package a Stripe subscription's price is for (the price's metadata, else its id). */
  private async packageOf(tx: Db, subscription: Stripe.Subscription): Promise<number | null> {
    const price = subscription.items.data[0]?.price;
    const candidates = [price?.metadata?.packageId, subscription.metadata?.packageId];
    for (const candidate of candidates) {
      const id = Number(candidate);
      if (Number.isInteger(id) && id > 0 && (await packageExists(tx, id))) return id;
    }
    return price ? findPackageIdByPrice(tx, price.id) : null;
  }

  /**
   * Applies one event to the agent's subscription, under its row lock. An event about a Stripe
   * subscription other than the agent's is ignored unless it may replace one that is not live.
   * Out of order: an event created before the newest one applied changes no status, package,
   * price or period (billing_event_at); the last invoice is replaced only by a newer one.
   */
  private async apply(
    tx: Db,
    agentId: number,
    change: Change,
    created: Date,
  ): Promise<WebhookOutcome> {
    const row = await findBillingRow(tx, agentId, true);
    const current = row?.stripeSubscriptionId ?? null;
    const replaceable = !row || current === null || row.status === 'CANCELED';
    if (current !== change.stripeSubscriptionId && !(change.mayAdopt && replaceable)) {
      return 'ignored';
    }
    const sub = change.subscription;
    const status = change.status !== undefined ? change.status : sub ? statusOf(sub.status) : null;
    // a new subscription not paid yet (incomplete) is taken on only once Stripe decides
    if (current !== change.stripeSubscriptionId && status === null) return 'ignored';
    const fields: BillingFields = { stripeSubscriptionId: change.stripeSubscriptionId };
    const item = sub?.items.data[0];
    const line = change.invoice?.lines?.data?.[0];
    // the period the event is about: its invoice's, else its subscription's
    const eventPeriodEnd = fromUnix(line?.period?.end) ?? fromUnix(item?.current_period_end);
    // the period paid for so far: a paid invoice's, else the subscription's
    const periodEnd =
      change.invoice?.outcome === 'paid' && line?.period?.end
        ? fromUnix(line.period.end)
        : fromUnix(item?.current_period_end);
    const stale = row
      ? isBehind(
          {
            created,
            periodEnd: eventPeriodEnd,
            status,
            paid: change.invoice?.outcome === 'paid',
            sameSubscription: current === change.stripeSubscriptionId,
          },
          row,
        )
      : false;
    if (!stale) {
      const packageId = (sub ? await this.packageOf(tx, sub) : null) ?? row?.packageId ?? null;
      if (packageId !== null) await applyBillingStatus(tx, agentId, packageId, status);
      fields.billingEventAt = created;
      if (item) fields.stripePriceId = item.price.id;
      if (periodEnd) fields.currentPeriodEnd = periodEnd;
    }
    const invoice = change.invoice;
    if (invoice && (row?.lastInvoiceAt == null || created >= row.lastInvoiceAt)) {
      fields.lastInvoiceId = invoice.id ?? null;
      fields.lastInvoiceStatus = invoice.outcome;
      fields.lastInvoiceAmountCents =
        invoice.outcome === 'paid' ? invoice.amount_paid : invoice.amount_due;
      fields.lastInvoiceAt = created;
      fields.lastInvoiceUrl = invoice.hosted_invoice_url ?? null;
    }
    await writeBillingFields(tx, agentId, fields);
    if (change.checkoutSessionId) {
      await clearPendingCheckout(tx, agentId, change.checkoutSessionId);
    } else if (!stale && change.status === 'ACTIVE') {
      await clearPendingCheckout(tx, agentId);
    }
    return 'applied';
  }
}
