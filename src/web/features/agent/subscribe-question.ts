import type { Package } from '../../../shared/contracts/packages';
import { categoryLabel, formatPriceExact } from '../../../shared/format';

type Offer = Pick<Package, 'name' | 'priceMonthlyCents' | 'leadsPerDay' | 'category'> &
  Partial<Pick<Package, 'pricing' | 'perLeadCents' | 'fromPerLeadCents'>>;

/**
 * What the agent is asked before subscribing or switching: the package and its price to the
 * cent ("Subscribe to Gold for $499.00/month?"), never the rounded "$499" of the cards; a
 * pay-per-lead package's least price per lead ("Subscribe to Gold for $12.50 per lead and up?").
 */
export function subscribeQuestion(pkg: Offer, switching: boolean): string {
  const price =
    pkg.pricing === 'PER_LEAD'
      ? `${formatPriceExact(pkg.fromPerLeadCents ?? pkg.perLeadCents ?? 0)} per lead and up`
      : `${formatPriceExact(pkg.priceMonthlyCents)}/month`;
  return switching
    ? `Switch to ${pkg.name} for ${price}?`
    : `Subscribe to ${pkg.name} for ${price}?`;
}

/**
 * What follows a yes: it takes effect at once, and what it brings each day (pay per lead: each
 * lead paid from the wallet as it arrives).
 */
export function subscribeDetail(pkg: Offer, replacing: string | null): string {
  const leads = `up to ${pkg.leadsPerDay} ${categoryLabel(pkg.category)} ${
    pkg.leadsPerDay === 1 ? 'lead' : 'leads'
  } a day`;
  const paid = pkg.pricing === 'PER_LEAD' ? ', each paid from your wallet as it arrives' : '';
  return replacing
    ? `${pkg.name} replaces ${replacing} at once: from now on you receive ${leads}${paid}.`
    : `Your subscription starts at once: you receive ${leads} that match your preferences${paid}.`;
}
