import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { adminAgentsQuery, pendingAgentsQuery, useBusinessTimeZone } from '@web/features/admin/api';
import { InviteLinkAction } from '@web/features/admin/components/agent-account-actions';
import { AgentsTable } from '@web/features/admin/components/agents-table';
import { speedToLeadQuery } from '@web/features/analytics/api';
import { periodOfDays } from '@web/features/analytics/components/period-picker';
import { useRegistrationMode } from '@web/features/auth/api';
import { walletBalancesQuery } from '@web/features/wallet/api';
import { listView } from '@web/lib/list-view';
import { useMemo, useState } from 'react';

export function AdminAgentsPage() {
  // every agent, or only those waiting for an admin's approval (docs/domain.md, Accounts)
  const [waitingOnly, setWaitingOnly] = useState(false);
  const all = useQuery(adminAgentsQuery);
  const pending = useQuery(pendingAgentsQuery);
  const agents = waitingOnly ? pending : all;
  const list = agents.data ?? [];
  const waiting = pending.data?.length ?? 0;
  const mode = useRegistrationMode();
  // speed to lead over the last 30 days comes apart: the table never waits for its percentiles
  const timeZone = useBusinessTimeZone();
  const period = useMemo(() => periodOfDays(30, timeZone), [timeZone]);
  const speed = useQuery(speedToLeadQuery(period));
  const speedByAgent = useMemo(
    () => (speed.data ? new Map(speed.data.agents.map((a) => [a.agentId, a])) : undefined),
    [speed.data],
  );
  // every agent's wallet, joined by agent id: the Balance column
  const wallets = useQuery(walletBalancesQuery);
  const balances = useMemo(
    () =>
      wallets.data
        ? new Map(wallets.data.map((w) => [w.agentId, w]))
        : wallets.isError
          ? null
          : undefined,
    [wallets.data, wallets.isError],
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Agents"
        description="Every agent, their package and today's quota"
        actions={mode === 'invite' && <InviteLinkAction />}
      />
      {(waiting > 0 || waitingOnly) && (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Show agents</legend>
          <Button
            variant={waitingOnly ? 'outline' : 'default'}
            aria-pressed={!waitingOnly}
            onClick={() => setWaitingOnly(false)}
          >
            All agents
          </Button>
          <Button
            variant={waitingOnly ? 'default' : 'outline'}
            aria-pressed={waitingOnly}
            onClick={() => setWaitingOnly(true)}
          >
            Waiting for approval ({waiting})
          </Button>
        </fieldset>
      )}
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <AgentsTable
            agents={list}
            speed={speedByAgent}
            balances={balances}
            view={listView(agents, list.length)}
            error={{
              message: 'The agents could not be loaded.',
              onRetry: () => agents.refetch(),
              retrying: agents.isFetching,
            }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
