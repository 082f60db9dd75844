import { AGENT_ONLY, type RouteCase } from './route-case';

export const profileRoutes: RouteCase[] = [
  // follow-up messages and calls (docs/domain.md, Follow-up messages and calls): this app runs without Twilio, so a call is refused
  // (409, not configured) and the provider's callbacks answer 404; test/follow-ups.test.ts and
  // test/calls.test.ts run them with Twilio's stand-in
  {
    method: 'GET',
    path: '/api/agent/profile',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/profile' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/profile',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/profile', body: { phone: '+13055550123' } }),
    invalid: () => ({ url: '/api/agent/profile', body: { phone: 5 } }),
  },
];
