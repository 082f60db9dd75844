import type { PublicUser } from '@shared/contracts/auth';
import { paths } from '@web/app/paths';
import { Sidebar, SidebarContent, SidebarFooter, SidebarHeader } from '@web/components/ui/sidebar';
import { useSidebar } from '@web/components/ui/sidebar-context';
import {
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
} from '@web/components/ui/sidebar-menu';
import { PendingReturnsBadge } from '@web/features/returns/components/pending-returns-badge';
import { UserCog } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { BrandLogo } from './brand-logo';
import { LogoutButton } from './logout-button';
import { portalNavFor, portalTitleFor } from './portal-nav';

export function AppSidebar({ user }: { user: PublicUser }) {
  const [location] = useLocation();
  const { isMobile, setOpenMobile, state } = useSidebar();
  const title = portalTitleFor(user.role);
  const closeOnMobile = () => {
    if (isMobile) setOpenMobile(false);
  };

  return (
    <Sidebar>
      <SidebarHeader className="h-14 justify-center border-b group-data-[collapsible=icon]:items-center">
        <Link
          href={paths.landing}
          aria-label="LeadFlow home"
          className="rounded-md px-1 outline-hidden group-data-[collapsible=icon]:px-0 focus-visible:ring-2 focus-visible:ring-sidebar-ring"
        >
          <BrandLogo compact={state === 'collapsed' && !isMobile} className="text-base" />
        </Link>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label={title}>
          <SidebarGroup>
            <SidebarGroupLabel>{title}</SidebarGroupLabel>
            <SidebarGroupContent>
              <SidebarMenu>
                {portalNavFor(user.role).map(({ title: label, href, icon: Icon }) => (
                  <SidebarMenuItem key={href}>
                    <SidebarMenuButton asChild isActive={location === href} tooltip={label}>
                      <Link
                        href={href}
                        onClick={closeOnMobile}
                        aria-current={location === href ? 'page' : undefined}
                      >
                        <Icon aria-hidden="true" />
                        <span>{label}</span>
                        {href === paths.admin.returns && <PendingReturnsBadge />}
                      </Link>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                ))}
              </SidebarMenu>
            </SidebarGroupContent>
          </SidebarGroup>
        </nav>
      </SidebarContent>
      <SidebarFooter className="border-t">
        <div className="min-w-0 px-2 py-1 group-data-[collapsible=icon]:hidden">
          <p className="truncate font-medium text-sm">{user.name}</p>
          <p className="truncate text-sidebar-foreground/80 text-xs">{user.email}</p>
        </div>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton asChild isActive={location === paths.account} tooltip="Account">
              <Link
                href={paths.account}
                onClick={closeOnMobile}
                aria-current={location === paths.account ? 'page' : undefined}
              >
                <UserCog aria-hidden="true" />
                <span>Account</span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
          <SidebarMenuItem>
            <LogoutButton />
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
    </Sidebar>
  );
}
