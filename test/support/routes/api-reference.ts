import { PUBLIC, type RouteCase } from './route-case';

export const apiReferenceRoutes: RouteCase[] = [
  // the API reference (plugins/openapi): public, like the API's own description of itself
  {
    method: 'GET',
    path: '/api/openapi.json',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/openapi.json' }),
  },
  {
    method: 'GET',
    path: '/api/docs',
    expect: PUBLIC(302),
    request: () => ({ url: '/api/docs' }),
  },
  {
    method: 'GET',
    path: '/api/docs/json',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/json' }),
  },
  {
    method: 'GET',
    path: '/api/docs/yaml',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/yaml' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/index.html',
    // swagger-ui sends it to the reference's own page
    expect: PUBLIC(302),
    request: () => ({ url: '/api/docs/static/index.html' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/swagger-initializer.js',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/theme/theme.css',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/theme/theme.css' }),
  },
  {
    method: 'GET',
    path: '/api/docs/static/*',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/docs/static/swagger-ui.css' }),
  },
];
