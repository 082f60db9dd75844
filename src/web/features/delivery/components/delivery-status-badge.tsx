import type { DeliveryChannel, DeliveryStatus } from '@shared/domain';
import { Badge, type BadgeProps } from '@web/components/ui/badge';

const VARIANT: Record<DeliveryStatus, BadgeProps['variant']> = {
  PENDING: 'secondary',
  SENT: 'default',
  FAILED: 'destructive',
  SKIPPED: 'outline',
};

const LABEL: Record<DeliveryStatus, string> = {
  PENDING: 'Pending',
  SENT: 'Sent',
  FAILED: 'Failed',
  SKIPPED: 'Skipped',
};

export function deliveryStatusLabel(status: DeliveryStatus): string {
  return LABEL[status] ?? status;
}

const CHANNEL_LABEL: Record<DeliveryChannel, string> = {
  EMAIL: 'Email',
  WEBHOOK: 'CRM Webhook',
};

export function channelLabel(channel: DeliveryChannel): string {
  return CHANNEL_LABEL[channel] ?? channel;
}

/** A delivery's status as the admin's list and the lead's timeline show it. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return (
    <Badge variant={VARIANT[status]} data-testid="delivery-status" data-status={status}>
      {LABEL[status] ?? status}
    </Badge>
  );
}
