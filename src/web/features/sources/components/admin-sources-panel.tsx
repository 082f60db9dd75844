import type { Source } from '@shared/contracts/sources';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { Plus, Waypoints } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { sourcesQuery, usePatchSource } from '../api';
import { ApiKeysDialog } from './api-keys-dialog';
import { SourceFormDialog } from './source-form-dialog';
import { SourcesTable } from './sources-table';

type FormState = { open: false } | { open: true; source: Source | null };

/** The sources table, its empty state, the Create/Edit dialog and each source's keys. */
export function AdminSourcesPanel({
  renderHeader,
}: {
  renderHeader: (createButton: ReactNode) => ReactNode;
}) {
  const sources = useQuery(sourcesQuery);
  const patch = usePatchSource();
  const [form, setForm] = useState<FormState>({ open: false });
  const [keysOf, setKeysOf] = useState<Source | null>(null);
  const [deactivating, setDeactivating] = useState<Source | null>(null);
  const openCreate = () => setForm({ open: true, source: null });

  function setActive(source: Source, active: boolean) {
    patch.mutate(
      { id: source.id, body: { active } },
      {
        onSuccess: () => {
          toast({ title: active ? 'Source activated' : 'Source deactivated' });
          setDeactivating(null);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: errorMessage(error, 'Failed to update the source'),
          }),
      },
    );
  }

  const list = sources.data ?? [];
  // the keys dialog follows the list (a key created or revoked changes its counts)
  const keysSource = keysOf ? (list.find((s) => s.id === keysOf.id) ?? keysOf) : null;
  return (
    <>
      {renderHeader(
        <Button onClick={openCreate}>
          <Plus aria-hidden="true" />
          Create Source
        </Button>,
      )}
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <SourcesTable
            sources={list}
            view={listView(sources, list.length)}
            error={{
              message: 'The sources could not be loaded.',
              onRetry: () => sources.refetch(),
              retrying: sources.isFetching,
            }}
            empty={
              <div className="flex flex-col items-center gap-4 py-4">
                <Waypoints className="size-10" aria-hidden="true" />
                <p>No sources yet</p>
                <Button onClick={openCreate}>
                  <Plus aria-hidden="true" />
                  Create Your First Source
                </Button>
              </div>
            }
            pendingId={patch.isPending ? (patch.variables?.id ?? null) : null}
            onEdit={(source) => setForm({ open: true, source })}
            onKeys={setKeysOf}
            onToggleActive={(source) =>
              source.active ? setDeactivating(source) : setActive(source, true)
            }
          />
        </CardContent>
      </Card>
      <SourceFormDialog
        open={form.open}
        source={form.open ? form.source : null}
        onClose={() => setForm({ open: false })}
      />
      <ApiKeysDialog source={keysSource} onClose={() => setKeysOf(null)} />
      <ConfirmDialog
        open={deactivating !== null}
        onOpenChange={(open) => {
          if (!open) setDeactivating(null);
        }}
        title={`Deactivate ${deactivating?.name ?? 'this source'}?`}
        description="Its API keys are refused (401) and imports can no longer name it, until it is activated again. Its leads stay as they are."
        confirmLabel="Deactivate"
        cancelLabel="Cancel"
        onConfirm={() => deactivating && setActive(deactivating, false)}
        pending={patch.isPending}
        destructive
        testId="deactivate-dialog"
      />
    </>
  );
}
