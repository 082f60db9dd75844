import type { AdminAgent } from '@shared/contracts/admin';
import type { SpeedFigures } from '@shared/contracts/analytics';
import type { WalletBalance } from '@shared/contracts/wallet';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@shared/domain';
import {
  DEFAULT_BUSINESS_TIME_ZONE,
  formatConversionRate,
  formatPrice,
  formatPriceExact,
  quotaSummary,
  subscriptionStatusLabel,
} from '@shared/format';
import { formatMinutes } from '@shared/format-minutes';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { EmailText } from '@web/components/ui/email-text';
import { Progress } from '@web/components/ui/progress';
import { Select, SelectContent, SelectItem, SelectTrigger } from '@web/components/ui/select';
import { toast } from '@web/components/ui/use-toast';
import { SubscriptionStatusBadge } from '@web/features/agent/components/subscription-status-badge';
import { CreditWalletDialog } from '@web/features/wallet/components/credit-wallet-dialog';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { useMemo, useState } from 'react';
import { AgentContactLine, LicencesCell } from '../../licences/components/agent-licences';
import { useSetSubscriptionStatus, useSetUserDisabled } from '../api';
import { ApprovalActions, ResetLinkAction, ResetTwoFactorAction } from './agent-account-actions';

const COLUMNS: DataColumn<AdminAgent>[] = [
  {
    header: 'Agent',
    phone: 'title',
    minWidth: 'min-w-32',
    cell: (agent) => (
      <>
        <div className="flex flex-wrap items-center gap-1.5 font-medium">
          {agent.name}
          {agent.disabled && (
            <Badge variant="destructive" data-testid="agent-disabled">
              Disabled
            </Badge>
          )}
        </div>
        <div className="font-normal text-muted-foreground text-xs">
          <EmailText email={agent.email} />
        </div>
        <AgentContactLine agent={agent} />
        <LicencesCell agent={agent} />
        <AccountCell agent={agent} />
        <AccountButton agent={agent} />
      </>
    ),
  },
  { header: 'Status', cell: (agent) => <SubscriptionCell agent={agent} />, nowrap: true },
  { header: "Today's Quota", cell: (agent) => <QuotaCell agent={agent} /> },
  { header: 'Total Leads', cell: (agent) => agent.totalLeads, nowrap: true },
  { header: 'Converted', cell: (agent) => agent.convertedLeads, nowrap: true },
  {
    header: 'Conversion Rate',
    cell: (agent) => formatConversionRate(agent.convertedLeads, agent.totalLeads),
    nowrap: true,
  },
];

/**
 * The account, under the agent's name where the narrowest table still shows it: Approve / Refuse
 * while waiting for approval (docs/domain.md, Accounts), else a password reset link to hand over
 * and the reset of a lost second factor.
 */
function AccountCell({ agent }: { agent: AdminAgent }) {
  return (
    <div className="mt-2 space-y-1 font-normal">
      {agent.approval === 'PENDING' && (
        <div className="font-medium text-xs">Waiting for approval</div>
      )}
      {agent.approval === 'REFUSED' && (
        <div className="text-muted-foreground text-xs">Not approved</div>
      )}
      {agent.approval === 'PENDING' ? (
        <ApprovalActions agent={agent} />
      ) : (
        <div className="flex flex-wrap gap-1.5">
          <ResetLinkAction agent={agent} />
          <ResetTwoFactorAction agent={agent} />
        </div>
      )}
    </div>
  );
}

/**
 * Disable (offboarding: the agent is signed out at once, cannot sign in and gets no leads; their
 * leads stay with them until reassigned) or Enable again (docs/domain.md, Offboarding).
 */
function AccountButton({ agent }: { agent: AdminAgent }) {
  const setDisabled = useSetUserDisabled();
  const disable = !agent.disabled;
  return (
    <Button
      size="sm"
      variant={disable ? 'outline' : 'default'}
      className="mt-1.5 h-7 px-2 text-xs"
      disabled={setDisabled.isPending}
      aria-label={`${disable ? 'Disable' : 'Enable'} ${agent.name}`}
      onClick={() =>
        setDisabled.mutate(
          { userId: agent.id, disabled: disable },
          {
            onSuccess: () =>
              toast({
                title: disable ? 'Account disabled' : 'Account enabled',
                description: disable
                  ? `${agent.name} is signed out and gets no leads. Reassign their leads from Leads.`
                  : `${agent.name} can sign in again.`,
              }),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Update failed',
                description: errorMessage(error, 'Failed to update the account'),
              }),
          },
        )
      }
    >
      {disable ? 'Disable' : 'Enable'}
    </Button>
  );
}

/**
 * An agent's speed to lead and speed to open, last 30 days (docs/domain.md, Analytics that
 * explain; Alerts to the agent's phone): loaded apart, so the table never waits.
 */
export type AgentSpeed = Pick<
  SpeedFigures,
  'assigned' | 'notContacted' | 'medianMinutes' | 'p90Minutes' | 'open'
>;

function speedColumn(speed: Map<number, AgentSpeed> | undefined): DataColumn<AdminAgent> {
  return {
    header: 'Speed to Lead',
    minWidth: 'min-w-28',
    cell: (agent) =>
      speed ? (
        <SpeedCell speed={speed.get(agent.id)} />
      ) : (
        <span className="text-muted-foreground">…</span>
      ),
  };
}

/**
 * Median and 90th percentile from assignment to first contact, then to the agent's first opening
 * of the lead, last 30 days (docs/domain.md, Analytics that explain; Alerts to the agent's phone).
 */
function SpeedCell({ speed }: { speed: AgentSpeed | undefined }) {
  if (!speed) return <span className="text-muted-foreground">No leads</span>;
  return (
    <div className="text-sm" data-testid="agent-speed">
      {speed.medianMinutes === null ? (
        <div className="text-muted-foreground">No contact yet</div>
      ) : (
        <>
          <div className="font-medium">{formatMinutes(speed.medianMinutes)} median</div>
          <div className="text-muted-foreground text-xs">p90 {formatMinutes(speed.p90Minutes)}</div>
        </>
      )}
      {speed.notContacted > 0 && (
        <div className="text-muted-foreground text-xs">{speed.notContacted} not yet contacted</div>
      )}
      <div className="mt-1 text-xs" data-testid="agent-open">
        {speed.open.medianMinutes === null ? (
          <span className="text-muted-foreground">Not opened yet</span>
        ) : (
          <>
            <span className="font-medium">Opened in {formatMinutes(speed.open.medianMinutes)}</span>{' '}
            <span className="text-muted-foreground">
              median, p90 {formatMinutes(speed.open.p90Minutes)}
            </span>
          </>
        )}
      </div>
    </div>
  );
}

const billingDate = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: DEFAULT_BUSINESS_TIME_ZONE,
});
const formatDay = (iso: string) => billingDate.format(new Date(iso));

/** Stripe Billing (docs/domain.md, Billing): the last invoice (amount, paid or failed, date) and the renewal. */
const BILLING_COLUMN: DataColumn<AdminAgent> = {
  header: 'Billing',
  minWidth: 'min-w-32',
  cell: (agent) => <BillingCell agent={agent} />,
};

function BillingCell({ agent }: { agent: AdminAgent }) {
  const billing = agent.billing;
  if (!billing) return <span className="text-muted-foreground">Not billed</span>;
  const invoice = billing.lastInvoice;
  // a renewal date means something only while the subscription is paid up
  const renews =
    agent.subscription?.status === 'ACTIVE' && billing.currentPeriodEnd
      ? formatDay(billing.currentPeriodEnd)
      : null;
  return (
    <div className="space-y-0.5 text-sm" data-testid="agent-billing">
      {invoice ? (
        <div
          className={cn(
            'font-medium',
            invoice.status === 'failed' ? 'text-destructive' : 'text-foreground',
          )}
          data-invoice-status={invoice.status}
        >
          {formatPriceExact(invoice.amountCents)} {invoice.status === 'paid' ? 'paid' : 'failed'}
        </div>
      ) : (
        <div className="text-muted-foreground">No invoice yet</div>
      )}
      {invoice && (
        <div className="whitespace-nowrap text-muted-foreground text-xs">
          on {formatDay(invoice.at)}
        </div>
      )}
      {renews && (
        <div className="whitespace-nowrap text-muted-foreground text-xs">renews {renews}</div>
      )}
    </div>
  );
}

/**
 * The agent's package and its price (a month's, or "Pay per lead" when the agent's wallet pays
 * its leads), and under it the wallet: its balance and "Credit wallet". One column, so the
 * table still fits beside the sidebar at 1280 px.
 */
function packageColumn(
  balances: Map<number, AgentWallet> | null | undefined,
  onCredit: (agent: AdminAgent) => void,
): DataColumn<AdminAgent> {
  return {
    header: 'Package',
    minWidth: 'min-w-28',
    cell: (agent) => (
      <>
        {agent.subscription ? (
          <>
            <div className="font-medium">{agent.subscription.package.name}</div>
            <div className="text-muted-foreground text-xs">
              {balances?.get(agent.id)?.payPerLead
                ? 'Pay per lead'
                : `${formatPrice(agent.subscription.package.priceMonthlyCents)}/month`}
            </div>
          </>
        ) : (
          <span className="text-muted-foreground">No package</span>
        )}
        <div className="mt-2 space-y-0.5" data-testid="agent-balance">
          <BalanceFigure
            wallet={balances === undefined ? undefined : (balances?.get(agent.id) ?? null)}
            failed={balances === null}
          />
          <Button
            size="sm"
            variant="link"
            className="h-auto p-0 text-xs underline"
            onClick={() => onCredit(agent)}
            aria-label={`Credit wallet of ${agent.name}`}
          >
            Credit wallet
          </Button>
        </div>
      </>
    ),
  };
}

/** An agent's wallet as the admins' list of balances has it. */
export type AgentWallet = Pick<WalletBalance, 'balanceCents' | 'payPerLead' | 'autoRecharge'>;

/** The balance; undefined while the balances load, null: no wallet. */
function BalanceFigure({
  wallet,
  failed,
}: {
  wallet: AgentWallet | null | undefined;
  failed: boolean;
}) {
  if (failed) return <div className="text-muted-foreground text-xs">Balance not loaded</div>;
  if (wallet === undefined) return <div className="text-muted-foreground text-xs">Balance …</div>;
  if (wallet === null) return <div className="text-muted-foreground text-xs">No wallet</div>;
  return (
    <div className="text-xs">
      Balance:{' '}
      <span
        className={cn(
          'font-medium tabular-nums',
          wallet.balanceCents <= 0 && wallet.payPerLead && 'text-destructive',
        )}
      >
        {formatPriceExact(wallet.balanceCents)}
      </span>
      {wallet.autoRecharge && <div className="text-muted-foreground">Auto-recharge on</div>}
    </div>
  );
}

export function AgentsTable({
  agents,
  view,
  error,
  speed,
  balances,
}: {
  agents: AdminAgent[];
  view: DataTableProps<AdminAgent>['view'];
  error: DataTableProps<AdminAgent>['error'];
  /** speed to lead by agent id; undefined while it loads */
  speed?: Map<number, AgentSpeed>;
  /** wallets by agent id; undefined while they load, null when they could not be loaded */
  balances?: Map<number, AgentWallet> | null;
}) {
  const [crediting, setCrediting] = useState<AdminAgent | null>(null);
  // the Billing column only once Stripe has billed someone: without Stripe the table is as before
  const billed = agents.some((agent) => agent.billing);
  const columns = useMemo(() => {
    // COLUMNS: the agent, then Status onwards; the package (with the wallet) between them, and
    // Billing after Status once Stripe has billed someone
    const [agentColumn, statusColumn, ...rest] = COLUMNS;
    return [
      ...(agentColumn ? [agentColumn] : []),
      packageColumn(balances, setCrediting),
      ...(statusColumn ? [statusColumn] : []),
      ...(billed ? [BILLING_COLUMN] : []),
      ...rest,
      speedColumn(speed),
    ];
  }, [billed, speed, balances]);
  return (
    <>
      <DataTable
        label="Agents"
        columns={columns}
        rows={agents}
        rowKey={(agent) => agent.id}
        rowTestId="agent-row"
        view={view}
        empty="No agents found"
        error={error}
      />
      <CreditWalletDialog agent={crediting} onClose={() => setCrediting(null)} />
    </>
  );
}

/** Assigned / limit with its bar while subscribed; N/A otherwise (as the agent's own card says). */
function QuotaCell({ agent }: { agent: AdminAgent }) {
  const quota = quotaSummary(agent.todayQuota, agent.subscription?.status);
  return (
    <div className="w-32 max-w-full space-y-1" data-testid="agent-quota">
      <div className="text-sm">{quota.value}</div>
      {quota.percent !== null ? (
        <Progress
          value={quota.percent}
          aria-label={`Today's quota used by ${agent.name}`}
          className="h-1.5"
        />
      ) : (
        // the Status column says why; the table adds only what an admin assigned by hand
        (agent.todayQuota?.assigned ?? 0) > 0 && (
          <div className="text-muted-foreground text-xs">
            {agent.todayQuota?.assigned} assigned today
          </div>
        )
      )}
    </div>
  );
}

/** The status badge, and a select to change it (an admin can set any status). */
function SubscriptionCell({ agent }: { agent: AdminAgent }) {
  const change = useSetSubscriptionStatus();
  const subscription = agent.subscription;
  if (!subscription) return <span className="text-muted-foreground">No Subscription</span>;

  function handleChange(value: string) {
    const status = value as SubscriptionStatus;
    change.mutate(
      { agentId: agent.id, status },
      {
        onSuccess: () =>
          toast({
            title: 'Subscription updated',
            description: `${agent.name}: ${subscriptionStatusLabel(status)}`,
          }),
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
      <SubscriptionStatusBadge status={subscription.status} />
      <Select value={subscription.status} onValueChange={handleChange} disabled={change.isPending}>
        <SelectTrigger
          className="h-7 w-7 justify-center px-0"
          aria-label={`Change subscription status of ${agent.name}`}
        ></SelectTrigger>
        <SelectContent>
          {SUBSCRIPTION_STATUSES.map((status) => (
            <SelectItem key={status} value={status}>
              {subscriptionStatusLabel(status)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
