import { AGENT_ONLY, type RouteCase } from './route-case';

/**
 * Alerts to the agent's phone (docs/domain.md, Alerts to the agent's phone). This app runs
 * without Twilio and the agent has no device: both tests are refused with 409; test/alerts.test.ts
 * runs them with Twilio's stand-in and a push service.
 */
export const alertsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/agent/alerts',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/alerts' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/alerts',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/alerts',
      body: { push: true, sms: false, quietHours: { start: '22:00', end: '07:00' } },
    }),
    invalid: () => ({
      url: '/api/agent/alerts',
      body: { push: true, sms: false, quietHours: { start: '25:00', end: '07:00' } },
    }),
  },
  {
    method: 'POST',
    path: '/api/agent/alerts/sms/test',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/alerts/sms/test' }),
  },
  {
    method: 'POST',
    path: '/api/agent/push/test',
    expect: AGENT_ONLY(409),
    // the push rows above leave agent A a device at a public address: removed, so that nothing
    // is sent off this machine
    request: async (fx) => {
      await fx.withoutPushDevices();
      return { url: '/api/agent/push/test' };
    },
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/viewed',
    // agent B names agent A's lead: 404, as if it did not exist
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/viewed` }),
    invalid: () => ({ url: '/api/agent/leads/abc/viewed' }),
  },
];
