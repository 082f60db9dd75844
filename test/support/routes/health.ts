import { PUBLIC, type RouteCase } from './route-case';

export const healthRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/health',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/health' }),
  },
  {
    method: 'GET',
    path: '/api/health/live',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/health/live' }),
  },
  {
    method: 'GET',
    path: '/api/health/ready',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/health/ready' }),
  },
  {
    // METRICS_TOKEN is not set in the matrix's app: not served (test/operations-metrics.test.ts
    // has the bearer's 200 and the 401s)
    method: 'GET',
    path: '/metrics',
    expect: PUBLIC(404),
    request: () => ({ url: '/metrics' }),
  },
];
