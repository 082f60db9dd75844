/**
 * The agencies' seats in Stripe (docs/domain.md, Agencies, "Paying with Stripe"; decision 029):
 * one customer and one subscription per agency, one item per package whose quantity is the
 * members the agency pays on it. Quantities are recomputed from the subscriptions (the truth)
 * after the change's commit, under the agency's row lock, with idempotency keys naming the
 * agency's seats version: a retry, a crash or two changes at once never leave Stripe off by one.
 */
import type Stripe from 'stripe';
import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/app-error';
import {
  type AgencyBilling,
  applyAgencyPayment,
  billsLive,
  bumpSeatsVersion,
  countAgencySeats,
  findAgenciesBehindOnSeats,
  findAgencyBilling,
  findAgencyIdByStripe,
  markSeatsSynced,
  payForMemberAfterCheckout,
  saveAgencyCustomer,
} from '../agencies/agency-billing.service';
import type { AfterCommit, AgencySeats } from '../agencies/agency-seats';
import { findPackageIdByPrice, packageExists, recordEvent } from './billing.repository';
import { ensurePackagePrice } from './package-price';
import { idOf, invoiceSubscriptionId, isBehind, statusOf, viaStripe } from './stripe-events';

/** The owner's agency screen (the web app's paths.agent.agency): Checkout returns here. */
const AGENCY_SCREEN = '/dashboard/agency';
const CHECKOUT_OPEN_MS = 60 * 60 * 1000;

/** What one Stripe event says of an agency's payment. */
export interface AgencyChange {
  agencyId: number;
  stripeSubscriptionId: string | null;
  /** the status it sets; null: none (not decided yet, or nothing to say) */
  status: SubscriptionStatus | null;
  /** a paid invoice (it settles the failures of its period) */
  paid: boolean;
  /** a completed Checkout: the member and package the owner paid for */
  checkout?: { memberId: number; packageId: number };
}

export type Warn = (error: unknown, message: string) => void;

const positiveInt = (value: unknown): number | null => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export class StripeSeats implements AgencySeats {
  readonly billed = true;

  constructor(
    private readonly db: Db,
    private readonly stripe: Stripe,
    private readonly publicUrl: string,
    private readonly cancelSubscription: (stripeSubscriptionId: string) => Promise<void>,
    private readonly warn: Warn,
  ) {}

  async checkout(db: Db, agencyId: number, memberId: number, packageId: number) {
    const agency = await findAgencyBilling(db, agencyId);
    if (!agency) throw notFound('Agency');
    if (billsLive(agency)) return null;
    return viaStripe(async () => {
      const [customer, price] = await Promise.all([
        this.ensureCustomer(agency),
        ensurePackagePrice(this.db, this.stripe, packageId),
      ]);
      const back = `${this.publicUrl}${AGENCY_SCREEN}`;
      const session = await this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: `agency-${agencyId}`,
        line_items: [{ price, quantity: 1 }],
        success_url: `${back}?checkout=success`,
        cancel_url: `${back}?checkout=canceled`,
        metadata: {
          agencyId: String(agencyId),
          memberId: String(memberId),
          packageId: String(packageId),
        },
        subscription_data: { metadata: { agencyId: String(agencyId) } },
        expires_at: Math.floor((Date.now() + CHECKOUT_OPEN_MS) / 1000),
      });
      if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', 'Stripe gave no Checkout page');
      return { checkoutUrl: session.url };
    });
  }

  private async ensureCustomer(agency: AgencyBilling): Promise<string> {
    if (agency.stripeCustomerId) return agency.stripeCustomerId;
    const customer = await this.stripe.customers.create(
      { name: agency.name, metadata: { agencyId: String(agency.id) } },
      { idempotencyKey: `agency-${agency.id}-customer` },
    );
    return (await saveAgencyCustomer(this.db, agency.id, customer.id)) ?? customer.id;
  }

  async changed(tx: Db, agencyId: number): Promise<AfterCommit> {
    await bumpSeatsVersion(tx, agencyId);
    // read now: the agency may be gone by the commit (its last member left)
    const known = (await findAgencyBilling(tx, agencyId))?.stripeSubscriptionId ?? null;
    return () => this.syncQuietly(agencyId, known);
  }

  async billingStatus(tx: Db, agencyId: number): Promise<SubscriptionStatus | null> {
    return (await findAgencyBilling(tx, agencyId))?.billingStatus ?? null;
  }

  cancelOwn(stripeSubscriptionId: string): Promise<void> {
    return this.cancelSubscription(stripeSubscriptionId);
  }

  /**
   * A sync that fails (Stripe down) leaves the agency's seats version ahead of the synced one:
   * the change stands (the subscriptions are the truth) and the next change, the next event of
   * the agency or the sweeper brings Stripe in step.
   */
  private async syncQuietly(agencyId: number, known: string | null): Promise<void> {
    try {
      await viaStripe(() => this.sync(agencyId, known));
    } catch (error) {
      this.warn(error, `Stripe seats of agency ${agencyId} not brought in step yet`);
    }
  }

  /** Every agency whose Stripe items lag behind: brought in step (the sweeper). */
  async syncBehind(): Promise<number> {
    const behind = await findAgenciesBehindOnSeats(this.db);
    for (const agencyId of behind) await this.syncQuietly(agencyId, null);
    return behind.length;
  }

  /**
   * Stripe's items set to the members the agency pays, by package: an item's quantity set, an
   * item added or removed, the subscription cancelled when no member is left. Under the
   * agency's row lock, so two syncs never interleave and an older count never lands last.
   * A seat added is invoiced at once, prorated (`always_invoice`); a seat removed is not
   * credited (`none`), as a month is paid in advance (docs/domain.md, Billing).
   */
  async sync(agencyId: number, known: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const agency = await findAgencyBilling(tx, agencyId, true);
      if (!agency) {
        // the agency is gone (its last member left): nothing is paid for any more
        if (known) await this.cancelSeats(known, `agency-${agencyId}-end-${known}`);
        return;
      }
      const version = agency.seatsVersion;
      if (agency.seatsSyncedVersion >= version) return;
      const subscriptionId = agency.stripeSubscriptionId;
      if (!subscriptionId || !billsLive(agency)) {
        await markSeatsSynced(tx, agencyId, version);
        return;
      }
      const key = (what: string) => `agency-${agencyId}-seats-${version}-${what}`;
      const seats = await countAgencySeats(tx, agencyId);
      const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
      if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
        await markSeatsSynced(tx, agencyId, version);
        return;
      }
      if (seats.size === 0) {
        await this.cancelSeats(subscriptionId, key('cancel'));
        await markSeatsSynced(tx, agencyId, version);
        return;
      }
      const itemOf = new Map<number, Stripe.SubscriptionItem>();
      const leftover: Stripe.SubscriptionItem[] = [];
      for (const item of subscription.items.data) {
        const packageId = await this.packageOf(tx, item.price);
        if (packageId !== null && seats.has(packageId) && !itemOf.has(packageId)) {
          itemOf.set(packageId, item);
        } else {
          leftover.push(item);
        }
      }
      for (const [packageId, quantity] of seats) {
        const item = itemOf.get(packageId);
        if (!item) {
          const price = await ensurePackagePrice(tx, this.stripe, packageId);
          await this.stripe.subscriptionItems.create(
            { subscription: subscriptionId, price, quantity, proration_behavior: 'always_invoice' },
            { idempotencyKey: key(`add-${packageId}`) },
          );
        } else if (item.quantity !== quantity) {
          const more = quantity > (item.quantity ?? 0);
          await this.stripe.subscriptionItems.update(
            item.id,
            { quantity, proration_behavior: more ? 'always_invoice' : 'none' },
            { idempotencyKey: key(`set-${item.id}`) },
          );
        }
      }
      // removed last, so that the subscription never runs out of items
      for (const item of leftover) {
        await this.stripe.subscriptionItems.del(
          item.id,
          { proration_behavior: 'none' },
          { idempotencyKey: key(`remove-${item.id}`) },
        );
      }
      await markSeatsSynced(tx, agencyId, version);
    });
  }

  /** Ends the agency's subscription now; the rest of the month is not credited. */
  private async cancelSeats(subscriptionId: string, idempotencyKey: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === 'canceled') return;
    await this.stripe.subscriptions.cancel(
      subscriptionId,
      { invoice_now: true, prorate: false },
      { idempotencyKey },
    );
  }

  /** The package an item's price is for (the price's metadata, else its id). */
  private async packageOf(tx: Db, price: Stripe.Price): Promise<number | null> {
    const fromMetadata = positiveInt(price.metadata?.packageId);
    if (fromMetadata !== null && (await packageExists(tx, fromMetadata))) return fromMetadata;
    return findPackageIdByPrice(tx, price.id);
  }

  /**
   * What the event says of an agency's payment; null when it is not about an agency (the agents'
   * billing takes it). Read before the transaction: a completed Checkout asks Stripe for its
   * subscription's status.
   */
  async changeOf(event: Stripe.Event): Promise<AgencyChange | null> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.expired': {
        const session = event.data.object;
        const agencyId = positiveInt(session.metadata?.agencyId);
        if (agencyId === null) return null;
        const id = idOf(session.subscription);
        const memberId = positiveInt(session.metadata?.memberId);
        const packageId = positiveInt(session.metadata?.packageId);
        if (event.type === 'checkout.session.expired' || !id || !memberId || !packageId) {
          return { agencyId, stripeSubscriptionId: null, status: null, paid: false };
        }
        const subscription = await this.stripe.subscriptions.retrieve(id);
        return {
          agencyId,
          stripeSubscriptionId: id,
          status: statusOf(subscription.status),
          paid: false,
          checkout: { memberId, packageId },
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        const agencyId = await this.agencyOf(subscription.id, subscription.metadata);
        if (agencyId === null) return null;
        return {
          agencyId,
          stripeSubscriptionId: subscription.id,
          status:
            event.type === 'customer.subscription.deleted'
              ? 'CANCELED'
              : statusOf(subscription.status),
          paid: false,
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const id = invoiceSubscriptionId(invoice);
        if (!id) return null;
        const agencyId = await this.agencyOf(id, invoice.parent?.subscription_details?.metadata);
        if (agencyId === null) return null;
        const paid = event.type === 'invoice.paid';
        return { agencyId, stripeSubscriptionId: id, status: paid ? 'ACTIVE' : 'PAST_DUE', paid };
      }
      default:
        return null;
    }
  }

  private async agencyOf(subscriptionId: string, metadata: Stripe.Metadata | null | undefined) {
    const known = await findAgencyIdByStripe(this.db, { subscriptionId });
    return known ?? positiveInt(metadata?.agencyId);
  }

  /**
   * Applies one agency event, once (its id recorded in the same transaction), under the agency's
   * row lock. An event about another Stripe subscription than the agency's changes nothing, but
   * a completed Checkout: it becomes the agency's subscription when the agency has none live, or
   * (a second Checkout finished while the first bills) its member joins the live one and the new
   * subscription is cancelled. An event older than the newest applied (the agents' order,
   * `isBehind`) changes nothing.
   */
  async apply(
    event: Stripe.Event,
    change: AgencyChange,
  ): Promise<'applied' | 'duplicate' | 'ignored'> {
    const created = new Date(event.created * 1000);
    const after: AfterCommit[] = [];
    const outcome = await this.db.transaction(async (tx) => {
      if (!(await recordEvent(tx, event.id, event.type, created))) return 'duplicate' as const;
      const agency = await findAgencyBilling(tx, change.agencyId, true);
      const subscriptionId = change.stripeSubscriptionId;
      if (!agency || !subscriptionId) return 'ignored' as const;
      const same = agency.stripeSubscriptionId === subscriptionId;
      if (!same && (!change.checkout || change.status !== 'ACTIVE')) return 'ignored' as const;
      if (!same && billsLive(agency)) {
        after.push(() => this.cancelQuietly(subscriptionId));
      } else {
        const stale = isBehind(
          {
            created,
            periodEnd: null,
            status: change.status,
            paid: change.paid,
            sameSubscription: same,
          },
          {
            billingEventAt: agency.billingEventAt,
            currentPeriodEnd: null,
            status: agency.billingStatus,
          },
        );
        if (stale) return 'applied' as const;
        if (change.status !== null) {
          await applyAgencyPayment(tx, agency, {
            status: change.status,
            eventAt: created,
            stripeSubscriptionId: subscriptionId,
          });
        }
      }
      if (change.checkout && change.status === 'ACTIVE') {
        const { memberId, packageId } = change.checkout;
        const paid = await payForMemberAfterCheckout(tx, agency.id, memberId, packageId);
        const own = paid.ownStripeSubscriptionId;
        if (paid.paid) after.push(await this.changed(tx, agency.id));
        if (own) after.push(() => this.cancelQuietly(own));
      } else if (agency.seatsVersion > agency.seatsSyncedVersion) {
        // a sync that failed earlier is tried again with the agency's next event
        after.push(() => this.syncQuietly(agency.id, null));
      }
      return 'applied' as const;
    });
    for (const work of after) await work();
    return outcome;
  }

  private async cancelQuietly(stripeSubscriptionId: string): Promise<void> {
    try {
      await this.cancelSubscription(stripeSubscriptionId);
    } catch (error) {
      this.warn(error, `Stripe subscription ${stripeSubscriptionId} not cancelled`);
    }
  }
}
