/**
 * Every path of the app, in one place (docs/domain.md, Screens): the router, the portal nav,
 * links, redirects and the route guard all read it, so no screen writes a path of its own. A
 * route that takes a parameter has a helper here beside its pattern (`joinPath`).
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
  /** an agency's invite link (public): `joinPath(code)` (docs/domain.md, Agencies) */
  join: '/join/:code',
  agent: {
    dashboard: '/dashboard',
    leads: '/dashboard/leads',
    preferences: '/dashboard/preferences',
    /** Choosing a package (docs/domain.md, Subscriptions: an agent chooses their package here). */
    package: '/dashboard/package',
    /** A pay-per-lead agent's wallet: balance, top-up, auto-recharge and entries. */
    wallet: '/dashboard/wallet',
    /** Delivery settings: email, the CRM webhook (docs/domain.md, Delivery of assigned leads). */
    delivery: '/dashboard/delivery',
    /** The agent's phone, Call Recording and follow-up messages (docs/domain.md, Follow-up messages and calls). */
    services: '/dashboard/services',
    /** The member's agency, or creating one (docs/domain.md, Agencies). */
    agency: '/dashboard/agency',
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
    /** Consumers' deletion requests (docs/domain.md, Consumer deletion and retention). */
    privacy: '/admin/privacy',
    /** The returns queue (docs/domain.md, Returns and credits). */
    returns: '/admin/returns',
    deliveries: '/admin/deliveries',
    /** Every agency, suspend and restore (docs/domain.md, Agencies). */
    agencies: '/admin/agencies',
    /** The audit log (docs/domain.md, Audit log). */
    audit: '/admin/audit',
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

/**
 * Where the route guard sends a visitor who is not signed in: /login, remembering a deep link
 * (a lead's link from an email, a filtered list) as `next` so that the login goes on to it; a
 * portal's home page needs no reminder.
 */
export function loginFor(blocked: string): string {
  const homes: string[] = [paths.agent.dashboard, paths.admin.dashboard, paths.landing];
  return homes.includes(blocked)
    ? paths.login
    : `${paths.login}?next=${encodeURIComponent(blocked)}`;
}

/**
 * Where a login goes: the remembered `next` when it is a path of this site (never another host:
 * "//evil.example" and "/\\evil" are refused), else the user's home. The route guard still
 * sends a user away from a screen of the other role.
 */
export function afterLogin(role: string, next: string | null): string {
  if (next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')) return next;
  return homeFor(role);
}

/** The join page of an agency's invite code. */
export function joinPath(code: string): string {
  return paths.join.replace(':code', encodeURIComponent(code));
}
