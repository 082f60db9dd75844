import type { ReactNode } from 'react';

/** A protected screen's h1, optional subtitle and actions; also sets the document title. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <title>{`${title} · LeadFlow`}</title>
      <div className="space-y-1">
        <h1 className="font-bold text-3xl tracking-tight">{title}</h1>
        {description && <p className="text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
