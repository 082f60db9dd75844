import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** One figure of an admin screen: a title, an icon, a big value and a note under it. */
export function StatCard({
  title,
  icon: Icon,
  value,
  note,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  /** undefined while loading */
  value: ReactNode | undefined;
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle asChild>
          <h2 className="font-medium text-sm">{title}</h2>
        </CardTitle>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </CardHeader>
      <CardContent className="space-y-1">
        {value === undefined ? (
          <>
            <Skeleton className="h-8 w-24" />
            <Skeleton className="h-3 w-32" />
          </>
        ) : (
          <>
            <p className="truncate font-bold text-2xl" data-testid={testId && `${testId}-value`}>
              {value}
            </p>
            {note && <p className="text-muted-foreground text-xs">{note}</p>}
          </>
        )}
      </CardContent>
    </Card>
  );
}
