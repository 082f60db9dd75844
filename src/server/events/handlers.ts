/**
 * The one place where the leads' events get their handlers (docs/ARCHITECTURE.md, "Events"),
 * called once by whoever builds the app or runs assignments (app.ts, scripts/, bench/). Each
 * handler lives in its own module's service; the emitters know the bus only, never the handlers.
 * Order matters only in that every handler runs in the emitter's transaction: the bell's
 * notifications (with their live events, one NOTIFY per agent in the same statement), then the
 * deliveries, then the follow-up messages, then the reclaim jobs of agency leads, then the pushes
 * to the agents' devices, then the SMS alerts to the agents' phones. The last three read before
 * they write: their reads of named leads are asked together, in one statement, before the first
 * handler runs (lead-events.ts, onRead).
 */
import type { AppConfig } from '../config/env';
import type { JobQueue } from '../jobs/job-queue';
import type { EmailSender } from '../lib/email-sender';
import {
  type AlertPorts,
  enqueueSmsAlerts,
  type SmsTarget,
  smsTargetsRead,
} from '../modules/alerts/alerts.service';
import { twilioSmsSender } from '../modules/calls/calls.service';
import {
  type DeliveryPorts,
  deliveryPorts,
  enqueueLeadDeliveries,
} from '../modules/delivery/deliveries.service';
import type { DeliveryRuntime } from '../modules/delivery/delivery-runtime';
import { smtpEmailSender } from '../modules/delivery/notice-email.service';
import { enqueueFollowUps, type FollowUpPorts } from '../modules/follow-ups/follow-ups.service';
import { notifyLeadsAssigned } from '../modules/notifications/notifications.service';
import {
  enqueueLeadPushes,
  type PushPorts,
  type PushTarget,
  pushPorts,
  pushTargetsRead,
} from '../modules/push/push.service';
import {
  type ReclaimableLead,
  type ReclaimPorts,
  reclaimableRead,
  scheduleReclaims,
} from '../modules/reclaim/reclaim.service';
import { createLeadEvents, type LeadEvents } from './lead-events';

/** The ports the leads' side effects are given, and the bus that reaches them. */
export interface LeadPorts {
  events: LeadEvents;
  delivery: DeliveryPorts;
  followUp: FollowUpPorts;
  reclaim: ReclaimPorts;
  /** push to the agents' devices (docs/domain.md, Alerts to the agent's phone) */
  push: PushPorts;
  /** SMS alerts to the agents' phones, and what every alert checks before it goes */
  alerts: AlertPorts;
  /** SMTP, null without SMTP_URL: the notices other modules send (a return's decision) */
  email: EmailSender | null;
}

export function registerLeadEventHandlers(
  events: LeadEvents,
  ports: Omit<LeadPorts, 'events' | 'email'>,
): void {
  events.on('leadsAssigned', notifyLeadsAssigned);
  events.on('leadsAssigned', (tx, assigned) => enqueueLeadDeliveries(tx, ports.delivery, assigned));
  events.on('leadsAssigned', (tx, assigned) => enqueueFollowUps(tx, ports.followUp, assigned));
  // these three read before they write (which leads an agency may take back, which devices and
  // phones to tell): their reads of named leads are asked together, in one statement
  events.onRead(
    'leadsAssigned',
    (assigned) => reclaimableRead(ports.reclaim, assigned),
    (tx, assigned, read: ReclaimableLead[] | undefined) =>
      scheduleReclaims(tx, ports.reclaim, assigned, read),
  );
  events.onRead(
    'leadsAssigned',
    (assigned) => pushTargetsRead(ports.push, assigned),
    (tx, assigned, read: PushTarget[] | undefined) =>
      enqueueLeadPushes(tx, ports.push, assigned, read),
  );
  events.onRead(
    'leadsAssigned',
    (assigned) => smsTargetsRead(ports.alerts, assigned),
    (tx, assigned, read: SmsTarget[] | undefined) =>
      enqueueSmsAlerts(tx, ports.alerts, assigned, read),
  );
}

/**
 * A bus with its handlers registered, over this queue (the null queue for a script: deliveries
 * are still recorded and a server's sweeper sends them, as before).
 */
export function createLeadPorts(
  config: AppConfig,
  queue: JobQueue,
  runtime: Partial<DeliveryRuntime> = {},
): LeadPorts {
  const email = smtpEmailSender(config.SMTP_URL);
  const reclaim: ReclaimPorts = { config, queue, events: null, email };
  const sms = twilioSmsSender(config);
  const push = pushPorts(config, queue, runtime);
  const ports = {
    delivery: deliveryPorts(config, queue, runtime),
    followUp: { config, queue, email, sms },
    reclaim,
    push,
    // an SMS alert is retried on the push's (the webhook's) waits
    alerts: { config, queue, sms, runtime: push.runtime },
  };
  const events = createLeadEvents();
  // a reclaim announces the new member's lead on the same bus
  reclaim.events = events;
  registerLeadEventHandlers(events, ports);
  return { events, email, ...ports };
}
