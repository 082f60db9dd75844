import type { LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { Badge, type BadgeProps } from '@web/components/ui/badge';

const VARIANT: Record<LeadStatus, BadgeProps['variant']> = {
  NEW: 'secondary',
  ASSIGNED: 'secondary',
  CONTACTED: 'outline',
  IN_PROGRESS: 'outline',
  CONVERTED: 'default',
  INVALID: 'destructive',
};

export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-status={status}>
      {leadStatusLabel(status)}
    </Badge>
  );
}
