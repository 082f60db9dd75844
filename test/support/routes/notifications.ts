import { ADMIN_ONLY, AGENT_ONLY, type RouteCase } from './route-case';

export const notificationsRoutes: RouteCase[] = [
  // live updates (modules/notifications): the bell of each role, and the agent's event stream
  {
    method: 'GET',
    path: '/api/agent/notifications',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/notifications' }),
  },
  {
    method: 'GET',
    path: '/api/admin/notifications',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/notifications' }),
  },
  {
    // an event stream answers only a client that asks for one (Accept: text/event-stream, as
    // EventSource does); asked otherwise, a signed-in agent gets 400 and the call ends, which is
    // what app.inject can wait for. test/live-events.test.ts opens the stream over HTTP.
    method: 'GET',
    path: '/api/agent/events',
    expect: AGENT_ONLY(400),
    request: () => ({ url: '/api/agent/events' }),
  },
  {
    method: 'POST',
    path: '/api/agent/notifications/read',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/notifications/read', body: { ids: [1] } }),
    invalid: () => ({ url: '/api/agent/notifications/read', body: { ids: ['all'] } }),
  },
  {
    method: 'POST',
    path: '/api/admin/notifications/read',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/notifications/read', body: {} }),
    invalid: () => ({ url: '/api/admin/notifications/read', body: { ids: [0] } }),
  },
];
