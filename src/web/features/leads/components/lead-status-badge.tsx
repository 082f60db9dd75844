import type { LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { Badge } from '@web/components/ui/badge';

const VARIANT: Record<LeadStatus, 'default' | 'secondary' | 'outline' | 'destructive'> = {
  NEW: 'default',
  ASSIGNED: 'secondary',
  CONTACTED: 'secondary',
  IN_PROGRESS: 'secondary',
  CONVERTED: 'default',
  INVALID: 'destructive',
};

export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-testid="lead-status">
      {leadStatusLabel(status)}
    </Badge>
  );
}
