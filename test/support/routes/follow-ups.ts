import { ADMIN_ONLY, AGENT_ONLY, PUBLIC, type RouteCase } from './route-case';

export const followUpsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/agent/follow-up',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/follow-up' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/follow-up',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/follow-up',
      body: {
        enabled: false,
        sms: 'Hi {firstName}. Reply STOP to opt out.',
        email: { subject: 'Hi', body: 'Hello' },
      },
    }),
    invalid: () => ({ url: '/api/agent/follow-up', body: { enabled: 'yes' } }),
  },
  {
    method: 'GET',
    path: '/api/admin/follow-ups',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/follow-ups' }),
  },
  {
    method: 'POST',
    path: '/api/telephony/sms/status',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/sms/status',
      body: { MessageSid: 'SM1', MessageStatus: 'delivered' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/sms/inbound',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/sms/inbound',
      body: { MessageSid: 'SM1', From: '+13055550123', Body: 'STOP' },
    }),
  },
];
