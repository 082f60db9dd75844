/**
 * Stripe's side of the wallet (docs/domain.md, The wallet): a top-up is a Checkout session in
 * payment mode that saves the card for later (`setup_future_usage: off_session`); auto-recharge
 * charges that card off session when a balance falls below its threshold; the webhook credits
 * each payment once (its PaymentIntent's id is the ledger entry's reference, so Checkout's event
 * and the PaymentIntent's, in any order and however often, credit it once); a refund takes its
 * amount back, never below zero.
 */
import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import {
  countEntries,
  creditPayment,
  debitRefund,
  markRecharge,
  rechargesDue,
  saveCard,
  setAutoRecharge,
  type WalletPayments,
} from '../wallet/wallet.service';
import { recordEvent } from './billing.repository';
import { idOf, viaStripe } from './stripe-events';

/** The agent's Wallet screen (the web app's paths.agent.wallet): Checkout returns here. */
const WALLET_SCREEN = '/dashboard/wallet';

/** What the metadata of the wallet's payments says they are for. */
const TOP_UP = 'wallet_top_up';
const RECHARGE = 'wallet_recharge';

export type WalletOutcome = 'applied' | 'duplicate' | 'ignored';

export class StripeWalletPayments implements WalletPayments {
  constructor(
    private readonly db: Db,
    private readonly stripe: Stripe,
    private readonly publicUrl: string,
    private readonly customerOf: (agentId: number) => Promise<string>,
    private readonly warn: (err: unknown, message: string) => void,
  ) {}

  startTopUp(agentId: number, amountCents: number): Promise<{ checkoutUrl: string }> {
    return viaStripe(async () => {
      const customer = await this.customerOf(agentId);
      const metadata = { purpose: TOP_UP, userId: String(agentId) };
      const back = `${this.publicUrl}${WALLET_SCREEN}`;
      const session = await this.stripe.checkout.sessions.create({
        mode: 'payment',
        customer,
        client_reference_id: String(agentId),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: amountCents,
              product_data: { name: 'LeadFlow wallet top-up' },
            },
          },
        ],
        payment_intent_data: { setup_future_usage: 'off_session', metadata },
        metadata,
        success_url: `${back}?top-up=success`,
        cancel_url: `${back}?top-up=canceled`,
      });
      if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', 'Stripe gave no Checkout page');
      return { checkoutUrl: session.url };
    });
  }

  /** Whether the event is about a wallet's money (billing's webhook asks before its own). */
  owns(event: Stripe.Event): boolean {
    const object = event.data.object as { metadata?: Record<string, string> | null };
    const purpose = object.metadata?.purpose;
    if (purpose === TOP_UP || purpose === RECHARGE) {
      return [
        'checkout.session.completed',
        'payment_intent.succeeded',
        'payment_intent.payment_failed',
        'charge.refunded',
      ].includes(event.type);
    }
    return false;
  }

  /** Applies a wallet event once (the event's id recorded with it, as billing's are). */
  async apply(event: Stripe.Event): Promise<WalletOutcome> {
    const object = event.data.object as unknown as {
      metadata: Record<string, string>;
    };
    const agentId = Number(object.metadata.userId);
    if (!Number.isInteger(agentId) || agentId <= 0) return 'ignored';
    const created = new Date(event.created * 1000);
    const outcome = await this.db.transaction(async (tx): Promise<WalletOutcome> => {
      if (!(await recordEvent(tx, event.id, event.type, created))) return 'duplicate';
      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object;
          const payment = idOf(session.payment_intent);
          if (session.payment_status !== 'paid' || !payment || !session.amount_total)
            return 'ignored';
          await creditPayment(tx, {
            agentId,
            amountCents: session.amount_total,
            reference: payment,
            note: 'Top-up by card',
          });
          return 'applied';
        }
        case 'payment_intent.succeeded': {
          const intent = event.data.object;
          await creditPayment(tx, {
            agentId,
            amountCents: intent.amount_received || intent.amount,
            reference: intent.id,
            note: object.metadata.purpose === RECHARGE ? 'Auto-recharge' : 'Top-up by card',
          });
          const card = idOf(intent.payment_method);
          if (card) await saveCard(tx, agentId, card);
          if (object.metadata.purpose === RECHARGE) await markRecharge(tx, agentId, false);
          return 'applied';
        }
        case 'payment_intent.payment_failed':
          // the saved card no longer pays: auto-recharge stops until the agent tops up again
          await markRecharge(tx, agentId, false);
          await setAutoRecharge(
            tx,
            agentId,
            { enabled: false, belowCents: null, amountCents: null },
            null,
          );
          return 'applied';
        case 'charge.refunded': {
          const charge = event.data.object;
          for (const refund of charge.refunds?.data ?? []) {
            await debitRefund(tx, { agentId, amountCents: refund.amount, reference: refund.id });
          }
          return 'applied';
        }
        default:
          return 'ignored';
      }
    });
    return outcome;
  }

  /**
   * Auto-recharge: charges the saved card of each wallet below its threshold, off session; the
   * PaymentIntent's id makes the credit once, whether this answer or the webhook brings it first.
   * A declined card turns auto-recharge off (the agent sees it off and tops up by hand).
   */
  async rechargeDue(): Promise<number> {
    let charged = 0;
    for (const due of await rechargesDue(this.db)) {
      if (!(await markRecharge(this.db, due.userId, true))) continue;
      try {
        const customer = await this.customerOf(due.userId);
        const metadata = { purpose: RECHARGE, userId: String(due.userId) };
        const intent = await this.stripe.paymentIntents.create(
          {
            amount: due.amountCents,
            currency: 'usd',
            customer,
            payment_method: due.paymentMethod,
            off_session: true,
            confirm: true,
            metadata,
            description: 'LeadFlow wallet auto-recharge',
          },
          // one charge per low balance, however often this is asked (two processes, a retry)
          {
            idempotencyKey: `wallet-recharge-${due.userId}-${await this.ledgerLength(due.userId)}`,
          },
        );
        if (intent.status === 'succeeded') {
          await this.db.transaction(async (tx) => {
            await creditPayment(tx, {
              agentId: due.userId,
              amountCents: intent.amount_received || intent.amount,
              reference: intent.id,
              note: 'Auto-recharge',
            });
            await markRecharge(tx, due.userId, false);
          });
          charged += 1;
        }
      } catch (error) {
        const declined = (error as { type?: string }).type === 'StripeCardError';
        await markRecharge(this.db, due.userId, false);
        if (declined) {
          await setAutoRecharge(
            this.db,
            due.userId,
            { enabled: false, belowCents: null, amountCents: null },
            null,
          );
        } else {
          this.warn(error, `auto-recharge of agent ${due.userId} failed`);
        }
      }
    }
    return charged;
  }

  /** The number of the wallet's entries: a new low balance after any entry is a new charge. */
  private ledgerLength(agentId: number): Promise<number> {
    return countEntries(this.db, agentId);
  }
}
