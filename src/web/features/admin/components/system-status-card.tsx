import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { cn } from '@web/lib/utils';
import type { ReactNode } from 'react';
import {
  assignmentStatus,
  type ComponentStatus,
  channelStatus,
  databaseStatus,
  type Health,
  type StatusTone,
} from '../system-status';

const DOT: Record<StatusTone, string> = {
  ok: 'bg-green-500',
  warning: 'bg-amber-500',
  error: 'bg-destructive',
  unknown: 'bg-muted-foreground',
};
const TEXT: Record<StatusTone, string> = {
  ok: 'text-green-700 dark:text-green-400',
  warning: 'text-amber-700 dark:text-amber-400',
  error: 'text-destructive',
  unknown: 'text-muted-foreground',
};

function StatusRow({
  name,
  status,
  testId,
  action,
}: {
  name: string;
  status: ComponentStatus;
  testId: string;
  action?: ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3" data-testid={testId}>
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium text-sm">{name}</p>
        {status.detail && (
          <p className="break-words text-muted-foreground text-xs">{status.detail}</p>
        )}
      </div>
      <div className="flex items-center gap-3">
        <span
          className={cn('flex items-center gap-2 font-medium text-sm', TEXT[status.tone])}
          data-testid={`${testId}-state`}
          data-tone={status.tone}
        >
          <span className={cn('size-2 rounded-full', DOT[status.tone])} aria-hidden="true" />
          {status.label}
        </span>
        {action}
      </div>
    </li>
  );
}

/**
 * What is really working: the database from the health check, lead assignment from the last
 * run, the delivery channels from their latest attempts. `assignmentAction` is the slot for the
 * "Run assignment now" control.
 */
export function SystemStatusCard({
  health,
  failed,
  assignmentAction,
}: {
  health: Health | undefined;
  failed: boolean;
  assignmentAction?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>System Status</h2>
        </CardTitle>
        <CardDescription>Leads are assigned automatically each day</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4">
          <StatusRow
            name="Database"
            status={databaseStatus(health, failed)}
            testId="status-database"
          />
          <StatusRow
            name="Lead Assignment"
            status={assignmentStatus(health, failed)}
            testId="status-assignment"
            action={assignmentAction}
          />
          <StatusRow
            name="Email Delivery"
            status={channelStatus(health, failed, 'email')}
            testId="status-email"
          />
          <StatusRow
            name="CRM Webhooks"
            status={channelStatus(health, failed, 'webhook')}
            testId="status-webhook"
          />
          <StatusRow
            name="Follow-up Messages"
            status={channelStatus(health, failed, 'sms')}
            testId="status-sms"
          />
          <StatusRow
            name="Call Recording"
            status={channelStatus(health, failed, 'voice')}
            testId="status-voice"
          />
        </ul>
      </CardContent>
    </Card>
  );
}
