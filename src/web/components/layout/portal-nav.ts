import type { UserRole } from '@shared/domain';
import { routes } from '@web/app/routes';
import {
  ChartColumn,
  CreditCard,
  FileText,
  LayoutDashboard,
  type LucideIcon,
  Package,
  SlidersHorizontal,
  Users,
} from 'lucide-react';

export type PortalNavItem = { title: string; href: string; icon: LucideIcon };

const agentNav: PortalNavItem[] = [
  { title: 'Dashboard', href: routes.agent.dashboard, icon: LayoutDashboard },
  { title: 'My Leads', href: routes.agent.leads, icon: FileText },
  { title: 'Preferences', href: routes.agent.preferences, icon: SlidersHorizontal },
  { title: 'Package', href: routes.agent.package, icon: CreditCard },
];

const adminNav: PortalNavItem[] = [
  { title: 'Dashboard', href: routes.admin.dashboard, icon: LayoutDashboard },
  { title: 'Packages', href: routes.admin.packages, icon: Package },
  { title: 'Leads', href: routes.admin.leads, icon: FileText },
  { title: 'Agents', href: routes.admin.agents, icon: Users },
  { title: 'Analytics', href: routes.admin.analytics, icon: ChartColumn },
];

/** The menu of a role's portal; any role other than ADMIN is an agent. */
export function portalNavFor(role: UserRole | string): PortalNavItem[] {
  return role === 'ADMIN' ? adminNav : agentNav;
}

export function portalTitleFor(role: UserRole | string): string {
  return role === 'ADMIN' ? 'Admin Portal' : 'Agent Portal';
}
