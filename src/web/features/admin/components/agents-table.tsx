import type { AdminAgent } from '@shared/contracts/admin';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@shared/domain';
import { conversionRate, formatPrice } from '@shared/format';
import { Badge } from '@web/components/ui/badge';
import { Progress } from '@web/components/ui/progress';
import { Select, SelectContent, SelectItem, SelectTrigger } from '@web/components/ui/select';
import { Skeleton } from '@web/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@web/components/ui/table';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useSetSubscriptionStatus } from '../api';

const COLUMNS = [
  'Agent',
  'Package',
  'Status',
  "Today's Quota",
  'Total Leads',
  'Converted',
  'Conversion Rate',
];

function quotaPercent(quota: { assigned: number; limit: number }): number {
  return quota.limit > 0 ? (quota.assigned / quota.limit) * 100 : 0;
}

export function AgentsTable({ agents, isLoading }: { agents: AdminAgent[]; isLoading: boolean }) {
  return (
    <Table aria-busy={isLoading}>
      <TableHeader>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {isLoading &&
          Array.from({ length: 3 }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <TableRow key={row}>
              {COLUMNS.map((column) => (
                <TableCell key={column}>
                  <Skeleton className="h-5 w-full min-w-12" />
                </TableCell>
              ))}
            </TableRow>
          ))}
        {!isLoading && agents.length === 0 && (
          <TableRow>
            <TableCell colSpan={COLUMNS.length} className="h-24 text-center text-muted-foreground">
              No agents found
            </TableCell>
          </TableRow>
        )}
        {agents.map((agent) => (
          <TableRow key={agent.id} data-testid="agent-row">
            <TableCell>
              <div className="font-medium">{agent.name}</div>
              <div className="text-muted-foreground text-xs">{agent.email}</div>
            </TableCell>
            <TableCell>
              {agent.subscription ? (
                <>
                  <div className="font-medium">{agent.subscription.package.name}</div>
                  <div className="text-muted-foreground text-xs">
                    {formatPrice(agent.subscription.package.priceMonthlyCents)}/month
                  </div>
                </>
              ) : (
                <span className="text-muted-foreground">No package</span>
              )}
            </TableCell>
            <TableCell>
              <SubscriptionCell agent={agent} />
            </TableCell>
            <TableCell data-testid="agent-quota">
              {agent.todayQuota ? (
                <div className="w-32 space-y-1">
                  <div className="text-sm">
                    {agent.todayQuota.assigned} / {agent.todayQuota.limit}
                  </div>
                  <Progress
                    value={quotaPercent(agent.todayQuota)}
                    aria-label={`Today's quota used by ${agent.name}`}
                    className="h-1.5"
                  />
                </div>
              ) : (
                <span className="text-muted-foreground">N/A</span>
              )}
            </TableCell>
            <TableCell>{agent.totalLeads}</TableCell>
            <TableCell>{agent.convertedLeads}</TableCell>
            <TableCell>{conversionRate(agent.convertedLeads, agent.totalLeads)}%</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The status badge, and a select to change it (an admin can set any status). */
function SubscriptionCell({ agent }: { agent: AdminAgent }) {
  const change = useSetSubscriptionStatus();
  const subscription = agent.subscription;
  if (!subscription) return <span className="text-muted-foreground">No Subscription</span>;

  function handleChange(status: string) {
    change.mutate(
      { agentId: agent.id, status: status as SubscriptionStatus },
      {
        onSuccess: () =>
          toast({ title: 'Subscription updated', description: `${agent.name}: ${status}` }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: errorMessage(error, 'Failed to update subscription'),
          }),
      },
    );
  }

  return (
    <div className="flex items-center gap-2">
      <Badge
        variant={subscription.status === 'ACTIVE' ? 'default' : 'secondary'}
        data-testid="subscription-status"
      >
        {subscription.status}
      </Badge>
      <Select value={subscription.status} onValueChange={handleChange} disabled={change.isPending}>
        <SelectTrigger
          className="h-7 w-7 justify-center px-0"
          aria-label={`Change subscription status of ${agent.name}`}
        ></SelectTrigger>
        <SelectContent>
          {SUBSCRIPTION_STATUSES.map((status) => (
            <SelectItem key={status} value={status}>
              {status}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
