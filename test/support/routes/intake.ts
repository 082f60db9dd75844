import { PUBLIC, type RouteCase } from './route-case';

export const intakeRoutes: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/v1/leads',
    expect: PUBLIC(401),
    request: () => ({
      url: '/api/v1/leads',
      body: { city: 'Austin', state: 'TX', age: 65, category: 'MEDICARE' },
    }),
  },
];
