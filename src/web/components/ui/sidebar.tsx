import { cn } from '@web/lib/utils';
import { PanelLeft } from 'lucide-react';
import type { ComponentProps, CSSProperties } from 'react';
import { Button } from './button';
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';
import { SIDEBAR_WIDTH_MOBILE, useSidebar } from './sidebar-context';
import { TooltipProvider } from './tooltip';

/** Menu tooltips in the collapsed sidebar open at once; 700 ms elsewhere. */
export const SIDEBAR_TOOLTIP_DELAY_MS = 0;

/**
 * Opening the phone sheet puts the focus on the link of the current screen (else the first
 * link). Radix skips links when it picks the first control, which left it on Logout, where
 * Enter ends the session.
 */
function focusCurrentLink(event: Event) {
  const sheet = event.currentTarget as HTMLElement | null;
  const link =
    sheet?.querySelector<HTMLElement>('a[aria-current="page"]') ??
    sheet?.querySelector<HTMLElement>('a[href]');
  if (!link) return;
  event.preventDefault();
  link.focus();
}

/**
 * Desktop: a fixed column that collapses to icons (data-state expanded/collapsed).
 * Below the mobile breakpoint: a slide-in sheet (data-mobile="true").
 */
export function Sidebar({
  className,
  children,
  label = 'Sidebar',
  ...props
}: ComponentProps<'div'> & { label?: string }) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();

  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent
          data-testid="sidebar"
          data-sidebar="sidebar"
          data-slot="sidebar"
          data-mobile="true"
          side="left"
          showCloseButton={false}
          onOpenAutoFocus={focusCurrentLink}
          className="w-(--sidebar-width) bg-sidebar p-0 text-sidebar-foreground [&>button]:hidden"
          style={{ '--sidebar-width': SIDEBAR_WIDTH_MOBILE } as CSSProperties}
        >
          <SheetHeader className="sr-only">
            <SheetTitle>{label}</SheetTitle>
            <SheetDescription>Displays the mobile sidebar.</SheetDescription>
          </SheetHeader>
          <TooltipProvider delayDuration={SIDEBAR_TOOLTIP_DELAY_MS}>
            <div className="flex h-full w-full flex-col">{children}</div>
          </TooltipProvider>
        </SheetContent>
      </Sheet>
    );
  }

  return (
    <div
      className="group peer hidden text-sidebar-foreground md:block"
      data-testid="sidebar"
      data-state={state}
      data-collapsible={state === 'collapsed' ? 'icon' : ''}
      data-mobile="false"
      data-slot="sidebar"
    >
      <div
        data-slot="sidebar-gap"
        className="relative w-(--sidebar-width) bg-transparent transition-[width] duration-200 ease-linear group-data-[collapsible=icon]:w-(--sidebar-width-icon)"
      />
      <aside
        aria-label={label}
        data-slot="sidebar-container"
        className={cn(
          'fixed inset-y-0 left-0 z-10 hidden h-svh w-(--sidebar-width) border-r transition-[left,right,width] duration-200 ease-linear group-data-[collapsible=icon]:w-(--sidebar-width-icon) md:flex',
          className,
        )}
        {...props}
      >
        <div
          data-sidebar="sidebar"
          data-slot="sidebar-inner"
          className="flex h-full w-full flex-col bg-sidebar"
        >
          <TooltipProvider delayDuration={SIDEBAR_TOOLTIP_DELAY_MS}>{children}</TooltipProvider>
        </div>
      </aside>
    </div>
  );
}

export function SidebarTrigger({ className, onClick, ...props }: ComponentProps<typeof Button>) {
  const { toggleSidebar, state, isMobile, openMobile } = useSidebar();
  return (
    <Button
      data-sidebar="trigger"
      data-slot="sidebar-trigger"
      data-testid="sidebar-trigger"
      variant="ghost"
      size="icon"
      className={cn('size-8', className)}
      aria-expanded={isMobile ? openMobile : state === 'expanded'}
      onClick={(event) => {
        onClick?.(event);
        toggleSidebar();
      }}
      {...props}
    >
      <PanelLeft aria-hidden="true" />
      <span className="sr-only">Toggle Sidebar</span>
    </Button>
  );
}

export function SidebarInset({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-inset"
      className={cn('relative flex w-full min-w-0 flex-1 flex-col bg-background', className)}
      {...props}
    />
  );
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-header"
      data-sidebar="header"
      className={cn('flex flex-col gap-2 p-2', className)}
      {...props}
    />
  );
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-footer"
      data-sidebar="footer"
      className={cn('flex flex-col gap-2 p-2', className)}
      {...props}
    />
  );
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="sidebar-content"
      data-sidebar="content"
      className={cn(
        'flex min-h-0 flex-1 flex-col gap-2 overflow-auto group-data-[collapsible=icon]:overflow-hidden',
        className,
      )}
      {...props}
    />
  );
}
