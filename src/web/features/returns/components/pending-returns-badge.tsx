import { useQuery } from '@tanstack/react-query';
import { adminReturnsQuery } from '../api';

/** The admin menu's count of returns waiting for a decision (docs/domain.md, Returns and credits); nothing at zero. */
export function PendingReturnsBadge() {
  const { data } = useQuery({
    ...adminReturnsQuery('PENDING'),
    select: (list) => list.pending,
    // agents ask at any time: look again each minute while the portal is open
    refetchInterval: 60_000,
  });
  if (!data) return null;
  return (
    <span
      data-testid="pending-returns"
      className="ml-auto rounded-full bg-destructive px-1.5 py-0.5 font-medium text-[10px] text-white leading-none group-data-[collapsible=icon]:hidden"
    >
      <span className="sr-only">, </span>
      {data}
      <span className="sr-only"> pending</span>
    </span>
  );
}
