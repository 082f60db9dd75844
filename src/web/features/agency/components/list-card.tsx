import { Card, CardContent } from '@web/components/ui/card';
import type { ReactNode } from 'react';

/** A list inside a card on a desktop (as Agents shows its table); on a phone its cards stand alone. */
export function ListCard({ children }: { children: ReactNode }) {
  return (
    <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
      <CardContent className="px-0 md:py-2 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
        {children}
      </CardContent>
    </Card>
  );
}
