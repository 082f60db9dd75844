import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alertSettings,
  alertSettingsBody,
  alertTestResult,
} from '../../../shared/contracts/alerts';
import { currentUser, requireRole } from '../../plugins/auth';
import {
  ALERT_TESTS_PER_HOUR,
  type AlertPorts,
  alertSettingsOf,
  putAlertSettings,
  sendTestSms,
} from './alerts.service';

/**
 * The signed-in agent's alerts to their phone (docs/domain.md, Alerts to the agent's phone): push
 * on or off, SMS on or off, quiet hours; and a test SMS to their own phone.
 */
export const alertsRoutes: FastifyPluginAsyncZod<{ alerts: AlertPorts }> = async (app, opts) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/alerts',
    { ...agent, schema: { response: { 200: alertSettings } } },
    (request) => alertSettingsOf(app.db, opts.alerts, currentUser(request).id),
  );

  app.put(
    '/api/agent/alerts',
    {
      ...agent,
      schema: {
        description:
          "Push and SMS alerts of new leads on or off, and quiet hours (HH:MM to HH:MM in the agent's time zone, may cross midnight; null: none). SMS needs a verified phone (409 otherwise)",
        body: alertSettingsBody,
        response: { 200: alertSettings },
      },
    },
    (request) => putAlertSettings(app.db, opts.alerts, currentUser(request).id, request.body),
  );

  app.post(
    '/api/agent/alerts/sms/test',
    {
      ...agent,
      schema: {
        description: `A test text to the agent's verified phone, quiet hours or not (409 without one; at most ${ALERT_TESTS_PER_HOUR} an hour: 429)`,
        response: { 200: alertTestResult },
      },
    },
    (request) => sendTestSms(app.db, opts.alerts, currentUser(request).id),
  );
};
