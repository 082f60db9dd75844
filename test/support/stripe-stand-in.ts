/**
 * A stand-in of the parts of Stripe's REST API that LeadFlow calls (products, prices, customers,
 * Checkout sessions, billing portal sessions, subscriptions retrieve, update and cancel, the
 * invoices a switch makes and their hosted page, subscription items with a quantity (create,
 * update, delete, with `proration_behavior`), and idempotency keys as Stripe keeps them), on
 * loopback, for the real `stripe` SDK to talk to (STRIPE_API_BASE). Bodies are form-encoded as
 * Stripe takes them; answers are JSON shaped like Stripe's objects. Its Checkout page "pays" when
 * opened: it makes the subscription and its invoice, sends the signed checkout.session.completed
 * and invoice.paid webhooks to `webhookUrl`, and redirects to the session's success URL.
 * Events are signed with the SDK's own generateTestHeaderString.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;

/** Stripe's form encoding (`a[b][0][c]=v`) back into nested objects and arrays. */
export function parseForm(body: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const keys = rawKey.split(/\[|\]\[|\]/).filter((k) => k !== '');
    let node: Obj = out;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? '');
      node[key] ??= nextIsIndex ? [] : {};
      node = node[key] as Obj;
    });
  }
  return out;
}

export interface SignedEvent {
  id: string;
  payload: string;
  header: string;
}

export interface StripeCall {
  method: string;
  path: string;
  body: Obj;
}

const now = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;

export class StripeStandIn {
  readonly calls: StripeCall[] = [];
  readonly customers = new Map<string, Obj>();
  readonly products = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  /** customers whose card on file is declined: an update's invoice stays open (pending update) */
  readonly declining = new Set<string>();
  /** proration items not invoiced yet, by subscription (cents): `create_prorations` adds to them */
  readonly pendingItems = new Map<string, number>();
  /** the events Stripe would send after an API call (a switch, a cancel), for the test to deliver */
  readonly outbox: SignedEvent[] = [];
  /** where the Checkout page sends its webhooks (the app's POST /api/billing/stripe/webhook) */
  webhookUrl: string | null = null;
  /** while true, every API call answers 500 (Stripe down) */
  failing = false;
  private seq = 0;
  private server: Server | null = null;
  private readonly signer = new Stripe('sk_test_stand_in');
  base = '';

  constructor(readonly webhookSecret = 'whsec_stand_in_secret') {}

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.json(res, 500, { error: { type: 'api_error', message: String(err) } });
      });
    });
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    const { port: bound } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${bound}`;
    return this.base;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private id(prefix: string): string {
    this.seq += 1;
    return `${prefix}_${process.pid}x${this.seq}`;
  }

  /** A signed event, as Stripe would send it. */
  event(type: string, object: unknown, created = now()): SignedEvent {
    const id = this.id('evt');
    const payload = JSON.stringify(
      {
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created,
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      },
      null,
      2,
    );
    const header = this.signer.webhooks.generateTestHeaderString({
      payload,
      secret: this.webhookSecret,
    });
    return { id, payload, header };
  }

  /** A subscription item of the price, for the period starting `start`. */
  private item(priceId: string, quantity: number, start: number, subscription: string): Obj {
    const price = this.prices.get(priceId);
    if (!price) throw new Error(`no price ${priceId}`);
    return {
      id: this.id('si'),
      object: 'subscription_item',
      subscription,
      price,
      quantity,
      current_period_start: start,
      current_period_end: start + 30 * DAY,
    };
  }

  /** A subscription of the customer to the price (or prices and quantities), as Stripe keeps it. */
  createSubscription(
    customer: string,
    priceId: string | { price: string; quantity: number }[],
    metadata: Obj = {},
    status = 'active',
  ) {
    const lines = typeof priceId === 'string' ? [{ price: priceId, quantity: 1 }] : priceId;
    const start = now();
    const id = this.id('sub');
    const subscription: Obj = {
      id,
      object: 'subscription',
      customer,
      status,
      metadata,
      created: start,
      cancel_at_period_end: false,
      items: {
        object: 'list',
        data: lines.map((l) => this.item(l.price, l.quantity, start, id)),
      },
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  /** An invoice of the subscription, paid or failed (a month of its price, unless `amount`). */
  invoice(
    subscriptionId: string,
    outcome: 'paid' | 'failed',
    created = now(),
    billingReason = 'subscription_cycle',
    amount?: number,
  ): Obj {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    amount ??= (subscription.items as { data: Obj[] }).data.reduce(
      (sum, item) =>
        sum + ((item.price as Obj).unit_amount as number) * ((item.quantity as number) ?? 1),
      0,
    );
    const id = this.id('in');
    const invoice: Obj = {
      id,
      object: 'invoice',
      customer: subscription.customer,
      status: outcome === 'paid' ? 'paid' : 'open',
      amount_due: amount,
      amount_paid: outcome === 'paid' ? amount : 0,
      currency: 'usd',
      created,
      hosted_invoice_url: `${this.base}/invoices/${id}`,
      billing_reason: billingReason,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
      },
      lines: {
        object: 'list',
        data: [{ period: { start: created, end: created + 30 * DAY } }],
      },
    };
    this.invoices.set(id, invoice);
    return invoice;
  }

  /** What the customer has been invoiced and paid for the subscription, in cents. */
  paidFor(subscriptionId: string): number {
    let sum = 0;
    for (const invoice of this.invoices.values()) {
      const parent = invoice.parent as { subscription_details: { subscription: string } };
      if (parent.subscription_details.subscription === subscriptionId && invoice.status === 'paid')
        sum += invoice.amount_paid as number;
    }
    return sum;
  }

  /**
   * POST /v1/subscriptions/{id} changing the price. `always_invoice` invoices the proration (the
   * price difference for the rest of the period) at once, else it waits in `pendingItems`. With
   * `pending_if_incomplete` an invoice the customer's card declines leaves the items as they were
   * and the change in `pending_update` until the invoice is paid (its hosted page). The
   * customer.subscription.updated and invoice events go to `outbox`.
   */
  private updateSubscription(subscription: Obj, body: Obj): void {
    const id = subscription.id as string;
    const data = (subscription.items as { data: Obj[] }).data;
    const changes = ((body.items ?? []) as { id: string; price: string }[]).flatMap((c) => {
      const item = data.find((i) => i.id === c.id);
      const price = this.prices.get(c.price);
      return item && price ? [{ item, price }] : [];
    });
    if (body.metadata) subscription.metadata = body.metadata;
    if (changes.length === 0) return;
    let amount = 0;
    for (const { item, price } of changes) {
      const left = ((item.current_period_end as number) - now()) / (30 * DAY);
      amount += Math.round(
        ((price.unit_amount as number) - ((item.price as Obj).unit_amount as number)) * left,
      );
    }
    const apply = () => {
      for (const { item, price } of changes) item.price = price;
      subscription.pending_update = null;
    };
    if (body.proration_behavior !== 'always_invoice') {
      apply();
      this.pendingItems.set(id, (this.pendingItems.get(id) ?? 0) + amount);
      this.outbox.push(this.event('customer.subscription.updated', subscription));
      return;
    }
    const declined = amount > 0 && this.declining.has(subscription.customer as string);
    const invoice = this.invoice(
      id,
      declined ? 'failed' : 'paid',
      now(),
      'subscription_update',
      amount,
    );
    subscription.latest_invoice = invoice.id;
    if (declined && body.payment_behavior === 'pending_if_incomplete') {
      subscription.pending_update = {
        expires_at: now() + DAY,
        subscription_items: changes.map(({ item, price }) => ({ id: item.id, price })),
      };
      this.pendingUpdates.set(invoice.id as string, { subscription, apply });
      this.outbox.push(this.event('invoice.payment_failed', invoice));
      return;
    }
    apply();
    this.outbox.push(
      this.event('customer.subscription.updated', subscription),
      this.event(declined ? 'invoice.payment_failed' : 'invoice.paid', invoice),
    );
  }

  /** answers kept by idempotency key (Stripe keeps them 24 hours) */
  private readonly idempotent = new Map<
    string,
    { params: string; status: number; body: unknown }
  >();
  private keeping: { key: string; params: string } | null = null;
  /** how many calls were answered again from their idempotency key */
  replays = 0;

  private error(res: ServerResponse, status: number, message: string): void {
    this.json(res, status, { error: { type: 'invalid_request_error', message } });
  }

  /** The items of a subscription. */
  private itemsOf(subscription: Obj): Obj[] {
    return (subscription.items as { data: Obj[] }).data;
  }

  /**
   * A change of seats billed as `proration_behavior` says: `always_invoice` invoices the price
   * of the quantity added for the rest of the period at once (declined for a declining customer),
   * `create_prorations` keeps it for the next invoice, `none` bills nothing (a quantity taken
   * away is not credited here). The customer.subscription.updated event (and the invoice's) go
   * to `outbox`.
   */
  private billSeats(subscription: Obj, item: Obj, added: number, proration: unknown): void {
    const id = subscription.id as string;
    const left = ((item.current_period_end as number) - now()) / (30 * DAY);
    const amount = Math.round(((item.price as Obj).unit_amount as number) * added * left);
    const events = [this.event('customer.subscription.updated', subscription)];
    if (proration === 'always_invoice' && amount > 0) {
      const declined = this.declining.has(subscription.customer as string);
      const invoice = this.invoice(
        id,
        declined ? 'failed' : 'paid',
        now(),
        'subscription_update',
        amount,
      );
      subscription.latest_invoice = invoice.id;
      events.push(this.event(declined ? 'invoice.payment_failed' : 'invoice.paid', invoice));
    } else if (proration !== 'none' && proration !== 'always_invoice') {
      this.pendingItems.set(id, (this.pendingItems.get(id) ?? 0) + amount);
    }
    this.outbox.push(...events);
  }

  /** POST /v1/subscription_items: a price added to a live subscription, with a quantity. */
  private addItem(res: ServerResponse, body: Obj) {
    const subscription = this.subscriptions.get(body.subscription as string);
    if (!subscription) return this.error(res, 404, 'No such subscription');
    if (subscription.status === 'canceled') {
      return this.error(res, 400, 'A canceled subscription can only update its metadata');
    }
    if (!this.prices.has(body.price as string)) return this.error(res, 404, 'No such price');
    const items = this.itemsOf(subscription);
    if (items.some((i) => (i.price as Obj).id === body.price)) {
      return this.error(res, 400, 'Cannot add multiple subscription items with the same price');
    }
    const first = items[0] as Obj;
    const item = this.item(
      body.price as string,
      Number(body.quantity ?? 1),
      first.current_period_start as number,
      subscription.id as string,
    );
    item.current_period_end = first.current_period_end;
    items.push(item);
    this.billSeats(subscription, item, item.quantity as number, body.proration_behavior);
    this.json(res, 200, item);
  }

  /** POST or DELETE /v1/subscription_items/{id}: its quantity set, or the item removed. */
  private changeItem(res: ServerResponse, itemId: string, method: string, body: Obj) {
    const subscription = [...this.subscriptions.values()].find((s) =>
      this.itemsOf(s).some((i) => i.id === itemId),
    );
    const items = subscription ? this.itemsOf(subscription) : [];
    const item = items.find((i) => i.id === itemId);
    if (!subscription || !item) return this.error(res, 404, 'No such subscription item');
    if (subscription.status === 'canceled') {
      return this.error(res, 400, 'A canceled subscription can only update its metadata');
    }
    if (method === 'DELETE') {
      if (items.length === 1) {
        return this.error(
          res,
          400,
          'A subscription must have at least one active item: cancel the subscription instead',
        );
      }
      items.splice(items.indexOf(item), 1);
      this.billSeats(subscription, item, 0, body.proration_behavior);
      return this.json(res, 200, { id: itemId, object: 'subscription_item', deleted: true });
    }
    const quantity = Number(body.quantity ?? item.quantity);
    const added = quantity - (item.quantity as number);
    item.quantity = quantity;
    this.billSeats(subscription, item, added, body.proration_behavior);
    this.json(res, 200, item);
  }

  private readonly pendingUpdates = new Map<string, { subscription: Obj; apply: () => void }>();

  /** The hosted invoice page paid: its pending update applied, its events sent. */
  payInvoice(invoiceId: string): SignedEvent[] {
    const invoice = this.invoices.get(invoiceId);
    if (!invoice) throw new Error(`no invoice ${invoiceId}`);
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due });
    const pending = this.pendingUpdates.get(invoiceId);
    this.pendingUpdates.delete(invoiceId);
    pending?.apply();
    return [
      ...(pending ? [this.event('customer.subscription.updated', pending.subscription)] : []),
      this.event('invoice.paid', invoice),
    ];
  }

  /** DELETE /v1/subscriptions/{id}: `invoice_now` invoices the pending items, else they are dropped. */
  private cancelSubscription(subscription: Obj, params: Obj): void {
    const id = subscription.id as string;
    const owed = this.pendingItems.get(id) ?? 0;
    this.pendingItems.delete(id);
    subscription.status = 'canceled';
    if (params.invoice_now === 'true' && owed !== 0) {
      this.outbox.push(
        this.event('invoice.paid', this.invoice(id, 'paid', now(), 'subscription_update', owed)),
      );
    }
    this.outbox.push(this.event('customer.subscription.deleted', subscription));
  }

  /**
   * Checkout paid: the session's subscription is made active, and the events Stripe would send
   * (checkout.session.completed, then invoice.paid) are returned signed.
   */
  pay(sessionId: string): { events: SignedEvent[]; successUrl: string; subscriptionId: string } {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.mode === 'payment') return this.payOnce(session);
    const lineItems = session.line_items as { price: string; quantity?: string }[];
    const subscriptionData = (session.subscription_data ?? {}) as { metadata?: Obj };
    const subscription = this.createSubscription(
      session.customer as string,
      lineItems.map((l) => ({ price: l.price, quantity: Number(l.quantity ?? 1) })),
      subscriptionData.metadata ?? {},
    );
    Object.assign(session, {
      subscription: subscription.id,
      status: 'complete',
      payment_status: 'paid',
    });
    const events = [
      this.event('checkout.session.completed', session),
      this.event('invoice.paid', this.invoice(subscription.id as string, 'paid')),
    ];
    return {
      events,
      successUrl: session.success_url as string,
      subscriptionId: subscription.id as string,
    };
  }

  /** the PaymentIntents made by Checkout in payment mode or by the API, by id */
  readonly paymentIntents = new Map<string, Obj>();

  /**
   * A Checkout session in payment mode paid: a PaymentIntent that succeeded (its card saved when
   * the session asked `setup_future_usage`), then checkout.session.completed and
   * payment_intent.succeeded, as Stripe sends them.
   */
  private payOnce(session: Obj) {
    const lines = session.line_items as {
      price_data: { unit_amount: string };
      quantity?: string;
    }[];
    const amount = lines.reduce(
      (sum, l) => sum + Number(l.price_data.unit_amount) * Number(l.quantity ?? 1),
      0,
    );
    const data = (session.payment_intent_data ?? {}) as {
      metadata?: Obj;
      setup_future_usage?: string;
    };
    const intent = this.succeededIntent(
      session.customer as string,
      amount,
      data.metadata ?? {},
      data.setup_future_usage ? this.id('pm') : null,
    );
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: intent.id,
      amount_total: amount,
    });
    return {
      events: [
        this.event('checkout.session.completed', session),
        this.event('payment_intent.succeeded', intent),
      ],
      successUrl: session.success_url as string,
      subscriptionId: '',
    };
  }

  private succeededIntent(
    customer: string,
    amount: number,
    metadata: Obj,
    paymentMethod: string | null,
  ) {
    const intent: Obj = {
      id: this.id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: amount,
      currency: 'usd',
      customer,
      status: 'succeeded',
      metadata,
      payment_method: paymentMethod,
      latest_charge: this.id('ch'),
      created: now(),
    };
    this.paymentIntents.set(intent.id as string, intent);
    return intent;
  }

  /**
   * POST /v1/payment_intents with confirm and off_session (auto-recharge): a declining customer's
   * card is refused as Stripe refuses it (402, card_error); otherwise it succeeds at once and
   * payment_intent.succeeded goes to `outbox`.
   */
  private createIntent(res: ServerResponse, body: Obj): void {
    const customer = body.customer as string;
    if (this.declining.has(customer)) {
      const intent = {
        id: this.id('pi'),
        object: 'payment_intent',
        status: 'requires_payment_method',
        amount: Number(body.amount),
        metadata: body.metadata ?? {},
      };
      this.outbox.push(this.event('payment_intent.payment_failed', intent));
      this.json(res, 402, {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
          payment_intent: intent,
        },
      });
      return;
    }
    const intent = this.succeededIntent(
      customer,
      Number(body.amount),
      (body.metadata ?? {}) as Obj,
      (body.payment_method as string) ?? null,
    );
    this.outbox.push(this.event('payment_intent.succeeded', intent));
    this.json(res, 200, intent);
  }

  /** A refund of a PaymentIntent (all of it unless `amount`): charge.refunded goes to `outbox`. */
  refund(paymentIntentId: string, amount?: number): SignedEvent {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (!intent) throw new Error(`no payment intent ${paymentIntentId}`);
    const refunded = amount ?? (intent.amount as number);
    const charge = {
      id: intent.latest_charge,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: refunded,
      payment_intent: intent.id,
      metadata: intent.metadata,
      refunded: refunded === intent.amount,
      refunds: {
        object: 'list',
        data: [{ id: this.id('re'), object: 'refund', amount: refunded, status: 'succeeded' }],
      },
    };
    return this.event('charge.refunded', charge);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.base);
    const body = parseForm(Buffer.concat(chunks).toString('utf8'));
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const query = parseForm(url.search.slice(1));
    if (path.startsWith('/v1/')) this.calls.push({ method, path, body: { ...query, ...body } });

    const pay = path.match(/^\/pay\/([\w]+)$/);
    if (method === 'GET' && pay) {
      const paid = this.pay(pay[1] as string);
      await this.send(paid.events);
      res.writeHead(303, { location: paid.successUrl });
      res.end();
      return;
    }
    const hostedInvoice = path.match(/^\/invoices\/([\w]+)$/);
    if (method === 'GET' && hostedInvoice) {
      await this.send(this.payInvoice(hostedInvoice[1] as string));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Invoice paid (stand-in)</title><h1>Invoice paid</h1>');
      return;
    }
    if (method === 'GET' && path.startsWith('/portal/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Billing portal (stand-in)</title><h1>Billing portal</h1>');
      return;
    }

    if (this.failing && path.startsWith('/v1/')) {
      this.json(res, 500, { error: { type: 'api_error', message: 'Stand-in is down' } });
      return;
    }
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer sk_')) {
      this.json(res, 401, { error: { type: 'invalid_request_error', message: 'No API key' } });
      return;
    }

    // Stripe keeps an answer by its Idempotency-Key: the same key answers it again without doing
    // anything; the same key with other parameters is refused
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && method !== 'GET') {
      const kept = this.idempotent.get(key);
      const params = JSON.stringify({ method, path, body });
      if (kept) {
        if (kept.params !== params) {
          return this.json(res, 400, {
            error: {
              type: 'idempotency_error',
              message: 'Keys for idempotent requests can only be used with the same parameters',
            },
          });
        }
        this.replays += 1;
        return this.json(res, kept.status, kept.body);
      }
      this.keeping = { key, params };
    }

    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: this.id('cus'), object: 'customer', ...body };
      this.customers.set(customer.id, customer);
      return this.json(res, 200, customer);
    }
    if (method === 'POST' && path === '/v1/products') {
      const product = { id: this.id('prod'), object: 'product', active: true, ...body };
      this.products.set(product.id, product);
      return this.json(res, 200, product);
    }
    const product = path.match(/^\/v1\/products\/([\w]+)$/);
    if (method === 'POST' && product) {
      const found = this.products.get(product[1] as string);
      if (!found) {
        return this.json(res, 404, {
          error: { type: 'invalid_request_error', message: 'No such product' },
        });
      }
      Object.assign(found, body);
      return this.json(res, 200, found);
    }
    if (method === 'POST' && path === '/v1/prices') {
      const price = {
        id: this.id('price'),
        object: 'price',
        active: true,
        type: 'recurring',
        ...body,
        unit_amount: Number(body.unit_amount),
      };
      this.prices.set(price.id, price);
      return this.json(res, 200, price);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = this.id('cs');
      const session = {
        id,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        url: `${this.base}/pay/${id}`,
        ...body,
      };
      this.sessions.set(id, session);
      return this.json(res, 200, session);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = this.id('bps');
      return this.json(res, 200, {
        id,
        object: 'billing_portal.session',
        url: `${this.base}/portal/${id}`,
        ...body,
      });
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      return this.createIntent(res, body);
    }
    if (method === 'POST' && path === '/v1/subscription_items') {
      return this.addItem(res, body);
    }
    const itemPath = path.match(/^\/v1\/subscription_items\/([\w]+)$/);
    if (itemPath && (method === 'POST' || method === 'DELETE')) {
      return this.changeItem(res, itemPath[1] as string, method, { ...query, ...body });
    }
    const sub = path.match(/^\/v1\/subscriptions\/([\w]+)$/);
    if (sub) {
      const subscription = this.subscriptions.get(sub[1] as string);
      if (!subscription) {
        return this.json(res, 404, {
          error: { type: 'invalid_request_error', message: 'No such subscription' },
        });
      }
      if (method === 'POST') this.updateSubscription(subscription, body);
      if (method === 'DELETE') this.cancelSubscription(subscription, { ...query, ...body });
      const expand = [...url.searchParams.getAll('expand[]'), ...((body.expand ?? []) as string[])];
      const latest = subscription.latest_invoice as string | undefined;
      return this.json(res, 200, {
        ...subscription,
        latest_invoice:
          latest && expand.includes('latest_invoice')
            ? this.invoices.get(latest)
            : (latest ?? null),
      });
    }
    this.json(res, 404, { error: { type: 'invalid_request_error', message: `No ${path}` } });
  }

  /** Posts the events to `webhookUrl`, in order, as Stripe delivers them. */
  async send(events: SignedEvent[]): Promise<void> {
    for (const event of events) {
      if (!this.webhookUrl) return;
      const answer = await fetch(this.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
        body: event.payload,
      });
      if (!answer.ok) throw new Error(`webhook answered ${answer.status}`);
    }
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    if (this.keeping) {
      this.idempotent.set(this.keeping.key, { ...this.keeping, status, body });
      this.keeping = null;
    }
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': this.id('req') });
    res.end(JSON.stringify(body));
  }
}
