import { PageHeader } from '@web/components/layout/page-header';
import { AgentLeadsPanel } from '@web/features/agent/components/agent-leads-panel';
import { useLeadsListState } from '@web/features/leads/components/leads-list-controls';

export function AgentLeadsPage() {
  const list = useLeadsListState({ sortable: true });
  return (
    <div className="space-y-6">
      <PageHeader
        title="My Leads"
        description="Work your assigned leads and update their status."
      />
      <AgentLeadsPanel list={list} />
    </div>
  );
}
