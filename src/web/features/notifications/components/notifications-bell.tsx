import type { Notification } from '@shared/contracts/delivery';
import type { UserRole } from '@shared/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@web/components/ui/popover';
import { cn } from '@web/lib/utils';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { notificationsQuery, useMarkNotificationsRead } from '../api';
import { relativeTime } from '../relative-time';

/** What the badge shows: the count, up to 99. */
function badgeText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/** Where a notification about a lead leads: the role's leads list with that lead's drawer open. */
function leadHref(role: UserRole, leadId: number): string {
  return `${role === 'ADMIN' ? paths.admin.leads : paths.agent.leads}?lead=${leadId}`;
}

/**
 * The bell in the portal header: the unread count on it, and a panel with the newest
 * notifications, each linking to its lead, and "Mark all read". The list is fetched once and
 * refreshed by live events (agents) or when the panel opens (admins have no stream).
 */
export function NotificationsBell({ role }: { role: UserRole }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const query = notificationsQuery(role);
  const list = useQuery(query);
  const markRead = useMarkNotificationsRead(role);
  const unread = list.data?.unread ?? 0;
  const items = list.data?.items ?? [];
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next && role === 'ADMIN') void queryClient.invalidateQueries({ queryKey: query.queryKey });
  };

  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative size-9"
          aria-label={label}
          data-testid="notifications-bell"
        >
          <Bell className="size-5" aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notifications-badge"
              className="absolute top-0.5 right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 font-semibold text-[10px] text-white leading-none"
            >
              {badgeText(unread)}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Notifications" className="flex max-h-[min(28rem,80vh)] flex-col">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-2.5">
          <h2 className="font-semibold text-sm">Notifications</h2>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate(undefined)}
          >
            Mark all read
          </Button>
        </div>
        {list.isError ? (
          <p className="px-4 py-6 text-center text-muted-foreground text-sm">
            Notifications could not be loaded.
          </p>
        ) : items.length === 0 ? (
          <p className="px-4 py-6 text-center text-muted-foreground text-sm">
            {list.data ? 'No notifications yet' : 'Loading...'}
          </p>
        ) : (
          <ul className="min-h-0 flex-1 divide-y overflow-y-auto" aria-label="Newest first">
            {items.map((item) => (
              <li key={item.id}>
                <NotificationItem
                  item={item}
                  href={item.leadId !== null ? leadHref(role, item.leadId) : null}
                  onOpen={() => {
                    if (!item.readAt) markRead.mutate([item.id]);
                    setOpen(false);
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}

function NotificationItem({
  item,
  href,
  onOpen,
}: {
  item: Notification;
  href: string | null;
  onOpen: () => void;
}) {
  const unread = item.readAt === null;
  const body = (
    <>
      <span className="flex items-start gap-2">
        <span
          aria-hidden="true"
          className={cn(
            'mt-1.5 size-2 shrink-0 rounded-full',
            unread ? 'bg-primary' : 'bg-transparent',
          )}
        />
        <span className="min-w-0 flex-1">
          <span className={cn('block break-words text-sm', unread && 'font-semibold')}>
            {item.title}
            {unread && <span className="sr-only"> (unread)</span>}
          </span>
          {item.body && (
            <span className="block break-words text-muted-foreground text-xs">{item.body}</span>
          )}
          <time dateTime={item.createdAt} className="block text-muted-foreground text-xs">
            {relativeTime(item.createdAt)}
          </time>
        </span>
      </span>
    </>
  );
  const className =
    'block px-4 py-3 outline-none hover:bg-accent focus-visible:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-inset';
  if (!href) return <div className={className}>{body}</div>;
  return (
    <Link href={href} className={className} onClick={onOpen}>
      {body}
    </Link>
  );
}
