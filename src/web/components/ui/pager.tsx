import { Button } from '@web/components/ui/button';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A list's "Showing 51–100 of 1,234" with Previous and Next. `range` is the text, `isLast`
 * whether this page is the last one; the buttons wait while a page loads.
 */
export function Pager({
  range,
  offset,
  pageSize,
  isLast,
  fetching,
  onOffset,
  rangeTestId,
}: {
  range: ReactNode;
  offset: number;
  pageSize: number;
  isLast: boolean;
  fetching: boolean;
  onOffset: (offset: number) => void;
  rangeTestId?: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-muted-foreground text-sm" data-testid={rangeTestId}>
        {range}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={offset === 0 || fetching}
          onClick={() => onOffset(Math.max(0, offset - pageSize))}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={isLast || fetching}
          onClick={() => onOffset(offset + pageSize)}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
