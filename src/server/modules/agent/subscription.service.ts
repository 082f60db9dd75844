import type { SubscriptionSummary } from '../../../shared/contracts/agent';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../lib/app-error';
import { findPackage } from '../packages/packages.repository';
import {
  findSubscription,
  setSubscriptionStatus,
  upsertSubscription,
} from './subscription.repository';

/**
 * Subscribes the agent to a package, or switches their subscription to it. Without a payment
 * provider the subscription is ACTIVE at once. Only an active package can be chosen.
 */
export async function subscribe(
  db: Db,
  agentId: number,
  packageId: number,
): Promise<SubscriptionSummary> {
  const pkg = await findPackage(db, packageId);
  if (!pkg) throw notFound('Package');
  if (!pkg.active) throw badRequest('This package is no longer available');
  await upsertSubscription(db, agentId, packageId, 'ACTIVE');
  return mustFind(db, agentId);
}

/** Cancels the agent's subscription: status CANCELED; the package stays on record. */
export async function cancelSubscription(db: Db, agentId: number): Promise<SubscriptionSummary> {
  if (!(await setSubscriptionStatus(db, agentId, 'CANCELED'))) throw notFound('Subscription');
  return mustFind(db, agentId);
}

async function mustFind(db: Db, agentId: number): Promise<SubscriptionSummary> {
  const subscription = await findSubscription(db, agentId);
  if (!subscription) throw notFound('Subscription');
  return subscription;
}
