import type { SubscriptionStatus } from '@shared/domain';
import { Badge } from '@web/components/ui/badge';

/** ACTIVE in the primary style, any other status in the secondary style (spec section 4). */
export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <Badge
      variant={status === 'ACTIVE' ? 'default' : 'secondary'}
      data-testid="subscription-status"
    >
      {status}
    </Badge>
  );
}
