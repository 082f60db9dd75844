import type { UserRole } from '@shared/domain';
import { paths } from '@web/app/paths';
import {
  Building2,
  ChartColumn,
  ClipboardList,
  CreditCard,
  FileText,
  LayoutDashboard,
  type LucideIcon,
  Package,
  PhoneCall,
  PhoneOff,
  Send,
  Settings,
  SlidersHorizontal,
  Undo2,
  Users,
  UserX,
  Wallet,
  Waypoints,
} from 'lucide-react';

export type PortalNavItem = { title: string; href: string; icon: LucideIcon };

const agentNav: PortalNavItem[] = [
  { title: 'Dashboard', href: paths.agent.dashboard, icon: LayoutDashboard },
  { title: 'My Leads', href: paths.agent.leads, icon: FileText },
  { title: 'Preferences', href: paths.agent.preferences, icon: SlidersHorizontal },
  { title: 'Package', href: paths.agent.package, icon: CreditCard },
  { title: 'Wallet', href: paths.agent.wallet, icon: Wallet },
  { title: 'Delivery', href: paths.agent.delivery, icon: Send },
  { title: 'Services', href: paths.agent.services, icon: PhoneCall },
  { title: 'Agency', href: paths.agent.agency, icon: Building2 },
];

const adminNav: PortalNavItem[] = [
  { title: 'Dashboard', href: paths.admin.dashboard, icon: LayoutDashboard },
  { title: 'Packages', href: paths.admin.packages, icon: Package },
  { title: 'Leads', href: paths.admin.leads, icon: FileText },
  { title: 'Agents', href: paths.admin.agents, icon: Users },
  { title: 'Analytics', href: paths.admin.analytics, icon: ChartColumn },
  { title: 'Sources', href: paths.admin.sources, icon: Waypoints },
  { title: 'Do Not Call', href: paths.admin.dnc, icon: PhoneOff },
  { title: 'Returns', href: paths.admin.returns, icon: Undo2 },
  { title: 'Deliveries', href: paths.admin.deliveries, icon: Send },
  { title: 'Agencies', href: paths.admin.agencies, icon: Building2 },
  { title: 'Audit', href: paths.admin.audit, icon: ClipboardList },
  { title: 'Privacy', href: paths.admin.privacy, icon: UserX },
  { title: 'Settings', href: paths.admin.settings, icon: Settings },
];

/** The menu of a role's portal; any role other than ADMIN is an agent. */
export function portalNavFor(role: UserRole | string): PortalNavItem[] {
  return role === 'ADMIN' ? adminNav : agentNav;
}

export function portalTitleFor(role: UserRole | string): string {
  return role === 'ADMIN' ? 'Admin Portal' : 'Agent Portal';
}
