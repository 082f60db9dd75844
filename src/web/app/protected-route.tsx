import type { UserRole } from '@shared/domain';
import { PageSpinner } from '@web/components/layout/page-spinner';
import { useCurrentUser } from '@web/features/auth/api';
import { WaitingForApproval } from '@web/features/auth/components/waiting-for-approval';
import { type ReactNode, Suspense } from 'react';
import { Redirect } from 'wouter';
import { lazyNamed } from './lazy-named';
import { homeFor, loginFor, paths } from './paths';

// The portal frame (sidebar, sheet, tooltips) loads only once someone opens a protected screen.
const PortalLayout = lazyNamed(
  () => import('@web/components/layout/portal-layout'),
  'PortalLayout',
);

/** ADMIN screens need ADMIN; AGENT screens accept any role that is not ADMIN. */
export function hasRole(userRole: string, required: UserRole): boolean {
  return required === 'ADMIN' ? userRole === 'ADMIN' : userRole !== 'ADMIN';
}

/**
 * Route guard (docs/domain.md, Screens): spinner, then /login, the user's own home, or the content. A
 * screen without a role (the account) is any signed-in user's. An agent an admin has not approved
 * sees only "Waiting for approval" (docs/domain.md, Accounts); a user who must set up two factors
 * first, only the Account screen.
 */
export function ProtectedRoute({ role, children }: { role?: UserRole; children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageSpinner fullScreen />;
  if (!user)
    return (
      <Redirect to={loginFor(`${window.location.pathname}${window.location.search}`)} replace />
    );
  // two factors required and not on yet (docs/domain.md, Accounts): the Account screen only (the
  // server answers 403 to everything else anyway)
  if (user.twoFactorSetupRequired && window.location.pathname !== paths.account) {
    return <Redirect to={paths.account} replace />;
  }
  if (role && !hasRole(user.role, role)) return <Redirect to={homeFor(user.role)} replace />;
  if (user.role !== 'ADMIN' && user.approval !== 'APPROVED') {
    return <WaitingForApproval user={user} />;
  }
  return (
    <Suspense fallback={<PageSpinner fullScreen />}>
      <PortalLayout user={user}>{children}</PortalLayout>
    </Suspense>
  );
}
