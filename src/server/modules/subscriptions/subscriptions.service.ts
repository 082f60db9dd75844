import type { AdminAgent } from '../../../shared/contracts/admin';
import type { SubscriptionSummary } from '../../../shared/contracts/agent';
import type { SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, badRequest, notFound } from '../../lib/app-error';
import { findAgent } from '../agents/agents.service';
import { findPackageById } from '../packages/packages.service';
import {
  findSubscription,
  updateSubscriptionStatus,
  upsertSubscription,
} from './subscriptions.repository';

/** The agent's subscription with its package, or null when they never subscribed. */
export function findAgentSubscription(
  db: Db,
  agentId: number,
): Promise<SubscriptionSummary | null> {
  return findSubscription(db, agentId);
}

/**
 * Subscribes the agent to a package, or switches their subscription to it. Without a payment
 * provider the subscription is ACTIVE at once. Only an active package can be chosen.
 */
export async function subscribe(
  db: Db,
  agentId: number,
  packageId: number,
): Promise<SubscriptionSummary> {
  const pkg = await findPackageById(db, packageId);
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

/**
 * Sets an agent's subscription status, whoever asks (the agent's cancel, an admin): the one
 * place a status changes. False when the user is no agent or has no subscription.
 */
export function setSubscriptionStatus(
  db: Db,
  agentId: number,
  status: SubscriptionStatus,
): Promise<boolean> {
  return updateSubscriptionStatus(db, agentId, status);
}

/** An admin's change of an agent's subscription status; answers the agent's row. */
export async function setAgentSubscriptionStatus(
  db: Db,
  timeZone: string,
  agentId: number,
  status: SubscriptionStatus,
): Promise<AdminAgent> {
  const changed = await setSubscriptionStatus(db, agentId, status);
  const agent = await findAgent(db, timeZone, agentId);
  if (!agent) throw notFound('Agent');
  if (!changed) throw new AppError('NOT_FOUND', 'This agent has no subscription');
  return agent;
}

async function mustFind(db: Db, agentId: number): Promise<SubscriptionSummary> {
  const subscription = await findSubscription(db, agentId);
  if (!subscription) throw notFound('Subscription');
  return subscription;
}
