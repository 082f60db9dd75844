import type { AuditEvent } from '@shared/contracts/audit';
import { type DataColumn, DataTable, type DataTableProps } from '@web/components/ui/data-table';
import { WhenText } from '@web/features/delivery/components/when-text';

/** A value as one short line: `{"name":"Acme"}` shown as `name: Acme`, long text cut. */
export function compactValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  const text = Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(', ');
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

function Change({ event }: { event: AuditEvent }) {
  const before = compactValue(event.before);
  const after = compactValue(event.after);
  if (!before && !after) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="space-y-0.5 break-words font-mono text-xs">
      {before && (
        <p title={JSON.stringify(event.before)}>
          <span className="text-muted-foreground">before </span>
          {before}
        </p>
      )}
      {after && (
        <p title={JSON.stringify(event.after)}>
          <span className="text-muted-foreground">{before ? 'after ' : ''}</span>
          {after}
        </p>
      )}
    </div>
  );
}

/** A route that may wrap after its slashes, never inside a word. */
function SlashBreaks({ text }: { text: string }) {
  const parts = text.split('/');
  return (
    <>
      {parts.map((part, i) => (
        // the parts of one fixed text: their order never changes
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <span key={i}>
          {i > 0 && '/'}
          {part}
          {i < parts.length - 1 && i > 0 && <wbr />}
        </span>
      ))}
    </>
  );
}

function columns(timeZone: string, onActor?: (actorId: number) => void): DataColumn<AuditEvent>[] {
  return [
    {
      header: 'Time',
      phone: 'title',
      cell: (row) => <WhenText iso={row.at} timeZone={timeZone} />,
    },
    {
      header: 'Actor',
      minWidth: 'min-w-32',
      cell: (row) =>
        row.actorId === null ? (
          <span className="text-muted-foreground">Not signed in</span>
        ) : (
          <span>
            {row.actorName ?? `User ${row.actorId}`}
            <span className="block text-muted-foreground text-xs">
              {onActor ? (
                <button
                  type="button"
                  className="-mx-1.5 -my-1 inline-flex min-h-6 min-w-6 items-center px-1.5 py-1 underline underline-offset-2 hover:text-foreground"
                  aria-label={`Show only the events of ${row.actorName ?? `user ${row.actorId}`} (#${row.actorId})`}
                  title="Show only this actor's events"
                  onClick={() => onActor(row.actorId!)}
                >
                  #{row.actorId}
                </button>
              ) : (
                `#${row.actorId}`
              )}{' '}
              · {row.actorRole}
            </span>
          </span>
        ),
    },
    {
      header: 'Address',
      nowrap: true,
      cell: (row) => <span className="font-mono text-xs">{row.ip ?? '—'}</span>,
    },
    {
      header: 'Action',
      minWidth: 'min-w-40',
      cell: (row) => (
        <span className="font-mono text-xs" data-testid="audit-action">
          <SlashBreaks text={row.action} />
        </span>
      ),
    },
    {
      header: 'Target',
      nowrap: true,
      cell: (row) =>
        row.targetType ? (
          <span>
            {row.targetType}
            {row.targetId ? ` ${row.targetId}` : ''}
          </span>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
    { header: 'Change', minWidth: 'min-w-48', cell: (row) => <Change event={row} /> },
  ];
}

export function AuditTable({
  rows,
  timeZone,
  view,
  error,
  onActor,
}: {
  rows: AuditEvent[];
  timeZone: string;
  view: DataTableProps<AuditEvent>['view'];
  error: DataTableProps<AuditEvent>['error'];
  /** where the log can be filtered by actor: an actor's #id shows only their events */
  onActor?: (actorId: number) => void;
}) {
  return (
    <DataTable
      label="Audit events"
      columns={columns(timeZone, onActor)}
      rows={rows}
      rowKey={(row) => row.id}
      rowTestId="audit-row"
      view={view}
      empty={<p className="text-muted-foreground text-sm">No events match.</p>}
      error={error}
    />
  );
}
