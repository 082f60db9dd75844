import type { AdminStats } from '@shared/contracts/admin';
import { formatPercent } from '@shared/format';
import { Package, TrendingUp, UserCheck, Users } from 'lucide-react';
import { StatCard } from './stat-card';

/** Packages, Total Leads, Agents and Conversion Rate (docs/domain.md, Screens). */
export function AdminStatCards({ stats }: { stats: AdminStats | undefined }) {
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Packages"
        icon={Package}
        testId="card-packages"
        value={stats?.totalPackages}
        note={stats && `${stats.activePackages} active`}
      />
      <StatCard
        title="Total Leads"
        icon={Users}
        testId="card-total-leads"
        value={stats?.totalLeads}
        note={stats && `${stats.unassignedLeads} unassigned`}
      />
      <StatCard
        title="Agents"
        icon={UserCheck}
        testId="card-agents"
        value={stats?.totalAgents}
        note={stats && `${stats.activeAgents} with active subscriptions`}
      />
      <StatCard
        title="Conversion Rate"
        icon={TrendingUp}
        testId="card-conversion-rate"
        value={stats && formatPercent(stats.conversionRate)}
        note="Overall platform"
      />
    </div>
  );
}
