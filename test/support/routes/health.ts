import { PUBLIC, type RouteCase } from './route-case';

export const healthRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/health',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/health' }),
  },
];
