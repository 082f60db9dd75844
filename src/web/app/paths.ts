/**
 * Every path of the app, in one place (spec section 2, route table): the router, the portal nav,
 * links, redirects and the route guard all read it, so no screen writes a path of its own. No
 * route takes a parameter yet; one that does gets a helper here beside its pattern.
 */
export const paths = {
  landing: '/',
  login: '/login',
  register: '/register',
  /** "Forgot password?" and the emailed link's page (docs/domain.md, Accounts) */
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  /** the footer's legal pages, as an admin wrote them (docs/domain.md, Legal pages) */
  privacy: '/privacy',
  terms: '/terms',
  /** the signed-in user's account: Change password (agents and admins) */
  account: '/account',
  agent: {
    dashboard: '/dashboard',
    leads: '/dashboard/leads',
    preferences: '/dashboard/preferences',
    /** Choosing a package (design section 3: the spec's table has no screen for it). */
    package: '/dashboard/package',
    /** Delivery settings: email, the CRM webhook (docs/domain.md, Delivery of assigned leads). */
    delivery: '/dashboard/delivery',
    /** The agent's phone, Call Recording and follow-up messages (docs/domain.md, Follow-up messages and calls). */
    services: '/dashboard/services',
  },
  admin: {
    dashboard: '/admin',
    packages: '/admin/packages',
    leads: '/admin/leads',
    agents: '/admin/agents',
    analytics: '/admin/analytics',
    sources: '/admin/sources',
    /** The do-not-call list (docs/domain.md, Do-not-call list and consent). */
    dnc: '/admin/dnc',
    /** The returns queue (docs/domain.md, Returns and credits). */
    returns: '/admin/returns',
    deliveries: '/admin/deliveries',
    /** the platform's settings an admin edits: the legal pages (docs/domain.md, Legal pages) */
    settings: '/admin/settings',
  },
} as const;

/** Landing page anchors. */
export const landingAnchors = {
  packages: 'packages',
  features: 'features',
} as const;

/** Where a user goes after login, or when they open a screen of the other role. */
export function homeFor(role: string): string {
  return role === 'ADMIN' ? paths.admin.dashboard : paths.agent.dashboard;
}
