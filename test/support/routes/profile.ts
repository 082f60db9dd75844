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
  {
    // without Twilio no code can be sent: 409
    method: 'POST',
    path: '/api/agent/profile/phone/verify',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/profile/phone/verify' }),
  },
  {
    // no code was sent: 409 "Ask for a code first"
    method: 'POST',
    path: '/api/agent/profile/phone/confirm',
    expect: AGENT_ONLY(409),
    request: () => ({ url: '/api/agent/profile/phone/confirm', body: { code: '123456' } }),
    invalid: () => ({ url: '/api/agent/profile/phone/confirm', body: { code: '12ab56' } }),
  },
];
