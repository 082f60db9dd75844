import { ADMIN_ONLY, PUBLIC, packageBody, type RouteCase } from './route-case';

export const packagesRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/packages',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/packages' }),
  },
  // admin: packages
  {
    method: 'GET',
    path: '/api/admin/packages',
    expect: ADMIN_ONLY(200),
    request: () => ({ url: '/api/admin/packages' }),
  },
  {
    method: 'POST',
    path: '/api/admin/packages',
    expect: ADMIN_ONLY(201),
    request: () => ({ url: '/api/admin/packages', body: packageBody() }),
    invalid: () => ({ url: '/api/admin/packages', body: { name: '' } }),
  },
  {
    method: 'PUT',
    path: '/api/admin/packages/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      const body = packageBody();
      return { url: `/api/admin/packages/${await fx.packageWithSlug(body.slug)}`, body };
    },
    invalid: (fx) => ({ url: `/api/admin/packages/${fx.packageId}`, body: { slug: 'x' } }),
  },
  {
    method: 'PATCH',
    path: '/api/admin/packages/:id',
    expect: ADMIN_ONLY(200),
    request: async (fx) => {
      return {
        url: `/api/admin/packages/${await fx.packageWithSlug()}`,
        body: { active: false },
      };
    },
    invalid: () => ({ url: '/api/admin/packages/not-a-number', body: { active: 'yes' } }),
  },
];
