import type { NotificationList } from '../../../shared/contracts/delivery';
import type { Db } from '../../db/client';
import type { AssignedLeads } from '../../events/lead-events';
import {
  listNotifications,
  markNotificationsRead,
  notifyDeliveriesFailed,
  notifyLeadIdsAssigned,
  notifyLeadReassignedAway,
  notifyLeadReclaimed,
  notifyLeadsOnDnc,
  notifyReturnDecided,
  notifyRunAssigned,
  notifyStreamsEnd,
  notifyWebhookDisabled,
} from './notifications.repository';

/** The bell's other notices, each written in its caller's transaction. */
export {
  notifyDeliveriesFailed,
  notifyLeadReassignedAway,
  notifyLeadReclaimed,
  notifyLeadsOnDnc,
  notifyReturnDecided,
  notifyWebhookDisabled,
};

/** How many notifications the bell lists. */
export const NOTIFICATIONS_SHOWN = 20;

/**
 * Writes the bell's notifications for newly assigned leads and tells live streams (pg_notify), in
 * the assignment's transaction, in one statement. A run writes one notification per agent ("5 new
 * leads", naming the newest); named leads (manual, intake) one per lead. Either way each agent
 * gets one event, delivered to its streams when the transaction commits.
 */
export async function notifyLeadsAssigned(tx: Db, assigned: AssignedLeads): Promise<void> {
  if ('runId' in assigned) {
    await notifyRunAssigned(tx, assigned.runId);
  } else if (assigned.leadIds.length > 0) {
    await notifyLeadIdsAssigned(tx, assigned.leadIds);
  }
}

/**
 * Ends every live event stream of the user at once, in every process (an admin changed the
 * agent's status): the browser opens it again, and the new request passes the session and role
 * checks of that moment.
 */
export function endLiveStreamsOf(db: Db, userId: number): Promise<void> {
  return notifyStreamsEnd(db, userId);
}

/** The bell: the user's newest notifications (any role) and the unread count. */
export function notificationsOf(db: Db, userId: number): Promise<NotificationList> {
  return listNotifications(db, userId, NOTIFICATIONS_SHOWN);
}

/** Marks the user's own notifications read: these ids, or all of them when none are named. */
export async function readNotifications(
  db: Db,
  userId: number,
  ids: number[] | undefined,
): Promise<void> {
  await markNotificationsRead(db, userId, ids);
}

export { forgetLeadNotifications } from './notifications.repository';
