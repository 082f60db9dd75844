import { AGENT_ONLY, PUBLIC, type RouteCase } from './route-case';

export const callsRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/agent/services',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/services' }),
  },
  {
    method: 'POST',
    path: '/api/agent/leads/:id/call',
    expect: AGENT_ONLY(409, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/call` }),
    invalid: () => ({ url: '/api/agent/leads/abc/call' }),
  },
  {
    method: 'GET',
    path: '/api/agent/leads/:id/calls',
    expect: AGENT_ONLY(200, 404),
    request: async (fx) => ({ url: `/api/agent/leads/${await fx.leadOfAgent()}/calls` }),
    invalid: () => ({ url: '/api/agent/leads/abc/calls' }),
  },
  {
    method: 'GET',
    path: '/api/recordings/:id',
    // no call has a recording here: the lead's agent and admins get 200 in test/calls.test.ts
    expect: { anonymous: 401, agent: 404, otherAgent: 404, admin: 404 },
    request: () => ({ url: '/api/recordings/999999999' }),
    invalid: () => ({ url: '/api/recordings/abc' }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/status',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/status',
      body: { CallSid: 'CA1', CallStatus: 'ringing' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/recording',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/recording?callId=1',
      body: { RecordingSid: 'RE1', RecordingUrl: 'https://api.twilio.com/x' },
    }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/:callId/connect',
    expect: PUBLIC(404),
    request: () => ({ url: '/api/telephony/voice/1/connect', body: { CallSid: 'CA1' } }),
  },
  {
    method: 'POST',
    path: '/api/telephony/voice/:callId/dialed',
    expect: PUBLIC(404),
    request: () => ({
      url: '/api/telephony/voice/1/dialed',
      body: { CallSid: 'CA1', DialCallStatus: 'completed' },
    }),
  },
];
