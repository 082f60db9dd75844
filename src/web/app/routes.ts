/** Every path of the app, in one place (spec section 2, route table). */
export const routes = {
  landing: '/',
  login: '/login',
  register: '/register',
  agent: {
    dashboard: '/dashboard',
    leads: '/dashboard/leads',
    preferences: '/dashboard/preferences',
    /** Choosing a package (design section 3: the spec's table has no screen for it). */
    package: '/dashboard/package',
  },
  admin: {
    dashboard: '/admin',
    packages: '/admin/packages',
    leads: '/admin/leads',
    agents: '/admin/agents',
    analytics: '/admin/analytics',
  },
} as const;

/** Landing page anchors. */
export const landingAnchors = {
  packages: 'packages',
  features: 'features',
} as const;

/** Where a user goes after login, or when they open a screen of the other role. */
export function homeFor(role: string): string {
  return role === 'ADMIN' ? routes.admin.dashboard : routes.agent.dashboard;
}
