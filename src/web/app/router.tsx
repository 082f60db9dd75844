import type { UserRole } from '@shared/domain';
import { PageSpinner } from '@web/components/layout/page-spinner';
import { type ComponentType, Suspense, useEffect } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { lazyNamed } from './lazy-named';
import { ForgotPasswordPage } from './pages/forgot-password-page';
import { LandingPage } from './pages/landing-page';
import { LoginPage } from './pages/login-page';
import { NotFoundPage } from './pages/not-found-page';
import { RegisterPage } from './pages/register-page';
import { ResetPasswordPage } from './pages/reset-password-page';
import { paths } from './paths';
import { ProtectedRoute } from './protected-route';

// Protected screens are split per route so the public pages never load them (or recharts).
const AgentDashboardPage = lazyNamed(
  () => import('./pages/agent-dashboard-page'),
  'AgentDashboardPage',
);
const AgentLeadsPage = lazyNamed(() => import('./pages/agent-leads-page'), 'AgentLeadsPage');
const AgentPreferencesPage = lazyNamed(
  () => import('./pages/agent-preferences-page'),
  'AgentPreferencesPage',
);
const AgentPackagePage = lazyNamed(() => import('./pages/agent-package-page'), 'AgentPackagePage');
const AgentWalletPage = lazyNamed(() => import('./pages/agent-wallet-page'), 'AgentWalletPage');
const AgentServicesPage = lazyNamed(
  () => import('./pages/agent-services-page'),
  'AgentServicesPage',
);
const AgentDeliveryPage = lazyNamed(
  () => import('./pages/agent-delivery-page'),
  'AgentDeliveryPage',
);
const AdminDashboardPage = lazyNamed(
  () => import('./pages/admin-dashboard-page'),
  'AdminDashboardPage',
);
const AdminPackagesPage = lazyNamed(
  () => import('./pages/admin-packages-page'),
  'AdminPackagesPage',
);
const AdminLeadsPage = lazyNamed(() => import('./pages/admin-leads-page'), 'AdminLeadsPage');
const AdminAgentsPage = lazyNamed(() => import('./pages/admin-agents-page'), 'AdminAgentsPage');
const AdminAnalyticsPage = lazyNamed(
  () => import('./pages/admin-analytics-page'),
  'AdminAnalyticsPage',
);

const AdminSourcesPage = lazyNamed(() => import('./pages/admin-sources-page'), 'AdminSourcesPage');

const AdminDncPage = lazyNamed(() => import('./pages/admin-dnc-page'), 'AdminDncPage');
const AdminPrivacyPage = lazyNamed(() => import('./pages/admin-privacy-page'), 'AdminPrivacyPage');
const AdminAuditPage = lazyNamed(() => import('./pages/admin-audit-page'), 'AdminAuditPage');

const AdminReturnsPage = lazyNamed(() => import('./pages/admin-returns-page'), 'AdminReturnsPage');

const AdminDeliveriesPage = lazyNamed(
  () => import('./pages/admin-deliveries-page'),
  'AdminDeliveriesPage',
);

const AdminSettingsPage = lazyNamed(
  () => import('./pages/admin-settings-page'),
  'AdminSettingsPage',
);

const LegalPage = lazyNamed(() => import('./pages/legal-page'), 'LegalPage');
const AgentAgencyPage = lazyNamed(() => import('./pages/agent-agency-page'), 'AgentAgencyPage');
const AdminAgenciesPage = lazyNamed(
  () => import('./pages/admin-agencies-page'),
  'AdminAgenciesPage',
);
// an invite link's page is public, but most visitors never open one: it loads on demand
const JoinPage = lazyNamed(() => import('./pages/join-page'), 'JoinPage');

const AccountPage = lazyNamed(() => import('./pages/account-page'), 'AccountPage');

/** role: the one who may open it; none: any signed-in user */
const protectedRoutes: { path: string; role?: UserRole; page: ComponentType }[] = [
  { path: paths.account, page: AccountPage },
  { path: paths.agent.dashboard, role: 'AGENT', page: AgentDashboardPage },
  { path: paths.agent.leads, role: 'AGENT', page: AgentLeadsPage },
  { path: paths.agent.preferences, role: 'AGENT', page: AgentPreferencesPage },
  { path: paths.agent.package, role: 'AGENT', page: AgentPackagePage },
  { path: paths.agent.wallet, role: 'AGENT', page: AgentWalletPage },
  { path: paths.agent.delivery, role: 'AGENT', page: AgentDeliveryPage },
  { path: paths.agent.services, role: 'AGENT', page: AgentServicesPage },
  { path: paths.agent.agency, role: 'AGENT', page: AgentAgencyPage },
  { path: paths.admin.dashboard, role: 'ADMIN', page: AdminDashboardPage },
  { path: paths.admin.packages, role: 'ADMIN', page: AdminPackagesPage },
  { path: paths.admin.leads, role: 'ADMIN', page: AdminLeadsPage },
  { path: paths.admin.agents, role: 'ADMIN', page: AdminAgentsPage },
  { path: paths.admin.analytics, role: 'ADMIN', page: AdminAnalyticsPage },
  { path: paths.admin.deliveries, role: 'ADMIN', page: AdminDeliveriesPage },
  { path: paths.admin.agencies, role: 'ADMIN', page: AdminAgenciesPage },
  { path: paths.admin.sources, role: 'ADMIN', page: AdminSourcesPage },
  { path: paths.admin.dnc, role: 'ADMIN', page: AdminDncPage },
  { path: paths.admin.audit, role: 'ADMIN', page: AdminAuditPage },
  { path: paths.admin.privacy, role: 'ADMIN', page: AdminPrivacyPage },
  { path: paths.admin.returns, role: 'ADMIN', page: AdminReturnsPage },
  { path: paths.admin.settings, role: 'ADMIN', page: AdminSettingsPage },
];

/** A new screen starts at the top, unless the URL points at an anchor. */
function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
    if (location && !window.location.hash) window.scrollTo(0, 0);
  }, [location]);
  return null;
}

export function AppRouter() {
  return (
    <>
      <ScrollToTop />
      <Switch>
        <Route path={paths.landing} component={LandingPage} />
        <Route path={paths.login} component={LoginPage} />
        <Route path={paths.register} component={RegisterPage} />
        <Route path={paths.forgotPassword} component={ForgotPasswordPage} />
        <Route path={paths.resetPassword} component={ResetPasswordPage} />
        <Route path={paths.privacy}>
          <Suspense fallback={<PageSpinner fullScreen />}>
            <LegalPage page="privacy" />
          </Suspense>
        </Route>
        <Route path={paths.terms}>
          <Suspense fallback={<PageSpinner fullScreen />}>
            <LegalPage page="terms" />
          </Suspense>
        </Route>
        <Route path={paths.join}>
          {(params) => (
            <Suspense fallback={<PageSpinner fullScreen />}>
              <JoinPage code={params.code} />
            </Suspense>
          )}
        </Route>
        {protectedRoutes.map(({ path, role, page: Page }) => (
          <Route key={path} path={path}>
            <ProtectedRoute role={role}>
              <Page />
            </ProtectedRoute>
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </>
  );
}
