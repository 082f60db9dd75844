import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/app-error';
import { savePackagePrice } from '../packages/packages.service';
import { lockPackagePrice } from './billing.repository';

/**
 * The package's monthly price in Stripe, kept in step: the product is made once; a price is
 * made when there is none or the package's price changed (a price is immutable in Stripe, so a
 * change makes a new one; subscriptions on the old one keep it until the agent switches).
 * Under the package's row lock, so two Checkouts at once do not make two prices.
 */
export function ensurePackagePrice(db: Db, stripe: Stripe, packageId: number): Promise<string> {
  return db.transaction(async (tx) => {
    const pkg = await lockPackagePrice(tx, packageId);
    if (!pkg) throw notFound('Package');
    if (pkg.stripePriceId && pkg.stripePriceCents === pkg.priceMonthlyCents) {
      return pkg.stripePriceId;
    }
    const metadata = { packageId: String(pkg.id) };
    const productId =
      pkg.stripeProductId ?? (await stripe.products.create({ name: pkg.name, metadata })).id;
    // the product's name follows the package's along with the price
    if (pkg.stripeProductId) await stripe.products.update(productId, { name: pkg.name });
    const price = await stripe.prices.create({
      product: productId,
      currency: 'usd',
      unit_amount: pkg.priceMonthlyCents,
      recurring: { interval: 'month' },
      metadata,
    });
    await savePackagePrice(tx, pkg.id, productId, price.id, pkg.priceMonthlyCents);
    return price.id;
  });
}
