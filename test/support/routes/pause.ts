import { AGENT_ONLY, type RouteCase } from './route-case';

export const pauseRoutes: RouteCase[] = [
  // availability and returns (docs/domain.md, Pause, Licensed states, Returns and credits): the agent's pause, an admin's licences, returns
  {
    method: 'GET',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/pause' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    // a date far ahead, then DELETE resumes: the fixture agents stay eligible
    request: () => ({ url: '/api/agent/pause', body: { until: '2099-12-31' } }),
    invalid: () => ({ url: '/api/agent/pause', body: { until: 'next week' } }),
  },
  {
    method: 'DELETE',
    path: '/api/agent/pause',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/pause' }),
  },
];
