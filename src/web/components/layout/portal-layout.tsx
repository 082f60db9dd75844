import type { PublicUser } from '@shared/contracts/auth';
import { Separator } from '@web/components/ui/separator';
import { SidebarInset, SidebarTrigger } from '@web/components/ui/sidebar';
import { SidebarProvider } from '@web/components/ui/sidebar-context';
import { TooltipProvider } from '@web/components/ui/tooltip';
import { LiveLeadEvents } from '@web/features/notifications/components/live-lead-events';
import { NotificationsBell } from '@web/features/notifications/components/notifications-bell';
import { type ReactNode, Suspense } from 'react';
import { AppSidebar } from './app-sidebar';
import { PageSpinner } from './page-spinner';
import { portalTitleFor } from './portal-nav';

/**
 * The frame of every protected screen: sidebar, header with the toggle, and the page.
 * Tooltips live only in the portal, so their provider (700 ms) stays out of the landing bundle.
 */
export function PortalLayout({ user, children }: { user: PublicUser; children: ReactNode }) {
  return (
    <TooltipProvider>
      <SidebarProvider>
        <a
          href="#main-content"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:shadow"
        >
          Skip to content
        </a>
        <AppSidebar user={user} />
        <SidebarInset>
          <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur">
            <SidebarTrigger className="-ml-1" />
            <Separator orientation="vertical" className="mr-2 data-[orientation=vertical]:h-4" />
            <p className="font-semibold text-sm" data-testid="portal-title">
              {portalTitleFor(user.role)}
            </p>
            <div className="ml-auto flex items-center">
              <NotificationsBell role={user.role} />
            </div>
          </header>
          {user.role === 'AGENT' && <LiveLeadEvents />}
          <main id="main-content" tabIndex={-1} className="flex-1 p-4 outline-none md:p-6">
            <Suspense fallback={<PageSpinner />}>{children}</Suspense>
          </main>
        </SidebarInset>
      </SidebarProvider>
    </TooltipProvider>
  );
}
