import { ReturnsQueue } from '@web/features/returns/components/returns-queue';

export function AdminReturnsPage() {
  return <ReturnsQueue />;
}
