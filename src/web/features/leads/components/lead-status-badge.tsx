import type { LeadStatus } from '@shared/domain';
import { leadStatusLabel } from '@shared/format';
import { Badge, type BadgeProps } from '@web/components/ui/badge';

/**
 * NEW stands out (it is what the admin assigns) and CONVERTED too (the goal); the statuses an
 * agent works through are outlined, and INVALID reads as a warning.
 */
const VARIANT: Record<LeadStatus, BadgeProps['variant']> = {
  NEW: 'default',
  ASSIGNED: 'secondary',
  CONTACTED: 'outline',
  IN_PROGRESS: 'outline',
  CONVERTED: 'default',
  INVALID: 'destructive',
};

/** A lead's status as both the agent's and the admin's screens show it. */
export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-testid="lead-status" data-status={status}>
      {leadStatusLabel(status)}
    </Badge>
  );
}
