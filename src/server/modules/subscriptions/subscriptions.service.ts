import type { AdminAgent } from '../../../shared/contracts/admin';
import type { SubscriptionSummary } from '../../../shared/contracts/agent';
import type { SubscriptionActor, SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, badRequest, notFound } from '../../lib/app-error';
import { findAgent } from '../agents/agents.service';
import { findPackageById } from '../packages/packages.service';
import {
  findSubscription,
  lockSubscription,
  updateSubscriptionStatus,
  writeSubscription,
} from './subscriptions.repository';

/** The agent's subscription with its package, or null when they never subscribed. */
export function findAgentSubscription(
  db: Db,
  agentId: number,
): Promise<SubscriptionSummary | null> {
  return findSubscription(db, agentId);
}

/**
 * Subscribes the agent to a package, or switches their subscription to it (docs/domain.md,
 * Subscriptions). Without a payment provider a new subscription is ACTIVE at once, and so is one
 * the agent cancelled themself. Any other status stays as it is whatever package the agent
 * switches to: an agent never lifts a PAST_DUE or INACTIVE, nor a cancellation by an admin.
 * Only an active package can be chosen.
 */
export async function subscribe(
  db: Db,
  agentId: number,
  packageId: number,
): Promise<SubscriptionSummary> {
  const pkg = await findPackageById(db, packageId);
  if (!pkg) throw notFound('Package');
  if (!pkg.active) throw badRequest('This package is no longer available');
  await db.transaction(async (tx) => {
    const current = await lockSubscription(tx, agentId);
    if (!current || current.status === 'ACTIVE' || ownCancellation(current)) {
      await writeSubscription(tx, agentId, packageId, 'ACTIVE', 'AGENT');
    } else {
      await writeSubscription(tx, agentId, packageId, current.status, current.statusSetBy);
    }
  });
  return mustFind(db, agentId);
}

function ownCancellation(s: { status: SubscriptionStatus; statusSetBy: SubscriptionActor }) {
  return s.status === 'CANCELED' && s.statusSetBy === 'AGENT';
}

/** Cancels the agent's subscription: status CANCELED; the package stays on record. */
export async function cancelSubscription(db: Db, agentId: number): Promise<SubscriptionSummary> {
  if (!(await setSubscriptionStatus(db, agentId, 'CANCELED', 'AGENT'))) {
    throw notFound('Subscription');
  }
  return mustFind(db, agentId);
}

/**
 * Sets an agent's subscription status, whoever asks (the agent's cancel, an admin; later the
 * payment provider), recording who: the one place a status changes. False when the user is no
 * agent or has no subscription.
 */
export function setSubscriptionStatus(
  db: Db,
  agentId: number,
  status: SubscriptionStatus,
  setBy: SubscriptionActor,
): Promise<boolean> {
  return updateSubscriptionStatus(db, agentId, status, setBy);
}

/** An admin's change of an agent's subscription status; answers the agent's row. */
export async function setAgentSubscriptionStatus(
  db: Db,
  timeZone: string,
  agentId: number,
  status: SubscriptionStatus,
): Promise<AdminAgent> {
  const changed = await setSubscriptionStatus(db, agentId, status, 'ADMIN');
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
