import type { SubscriptionStatus } from '@shared/domain';
import { subscriptionStatusLabel } from '@shared/format';
import { Badge } from '@web/components/ui/badge';

/**
 * ACTIVE in the primary style, any other status in the secondary style (docs/domain.md, Screens), in
 * words ("Past due"); the enum stays in data-status for whoever needs it.
 */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <Badge
      variant={status === 'ACTIVE' ? 'default' : 'secondary'}
      data-testid="subscription-status"
      data-status={status}
    >
      {subscriptionStatusLabel(status)}
    </Badge>
  );
}
