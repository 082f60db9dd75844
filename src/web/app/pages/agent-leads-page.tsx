import { PageHeader } from '@web/components/layout/page-header';
import { AgentLeadsPanel } from '@web/features/agent/components/agent-leads-panel';

export function AgentLeadsPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="My Leads"
        description="Work your assigned leads and update their status."
      />
      <AgentLeadsPanel />
    </div>
  );
}
