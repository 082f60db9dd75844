import type { AssignmentRunResult } from '@shared/contracts/admin';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The success toast's text: 'Assigned N leads to M agents.' */
export function runSummary(run: Pick<AssignmentRunResult, 'assigned' | 'agentsAssigned'>): string {
  return `Assigned ${count(run.assigned, 'lead', 'leads')} to ${count(run.agentsAssigned, 'agent', 'agents')}.`;
}
