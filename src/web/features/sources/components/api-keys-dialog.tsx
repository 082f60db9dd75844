import type { ApiKey, CreatedApiKey, Source } from '@shared/contracts/sources';
import { formatBusinessTime } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { Copy, KeyRound, Plus, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { sourceKeysQuery, useCreateApiKey, useRevokeApiKey } from '../api';

/** A source's API keys: create one (shown once), the list by prefix, revoke with a question. */
export function ApiKeysDialog({ source, onClose }: { source: Source | null; onClose: () => void }) {
  return (
    <Dialog
      open={source !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent
        className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl"
        data-testid="keys-dialog"
      >
        {source && <KeysPanel key={source.id} source={source} />}
      </DialogContent>
    </Dialog>
  );
}

function KeysPanel({ source }: { source: Source }) {
  const keys = useQuery(sourceKeysQuery(source.id));
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const timeZone = useBusinessTimeZone();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const list = keys.data ?? [];
  const view = listView(keys, list.length);

  function createKey() {
    create.mutate(source.id, {
      onSuccess: (key) => setCreated(key),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'The key could not be created',
          description: errorMessage(error, 'Failed to create the key'),
        }),
    });
  }

  function confirmRevoke() {
    if (!revoking) return;
    revoke.mutate(
      { sourceId: source.id, keyId: revoking.id },
      {
        onSuccess: () => {
          toast({ title: 'Key revoked' });
          if (created?.id === revoking.id) setCreated(null);
          setRevoking(null);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'The key could not be revoked',
            description: errorMessage(error, 'Failed to revoke the key'),
          }),
      },
    );
  }

  return (
    <div className="grid min-w-0 gap-4">
      <DialogHeader>
        <DialogTitle>API Keys: {source.name}</DialogTitle>
        <DialogDescription>
          A key lets the source's system send leads to <code>POST /api/v1/leads</code> as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>.
        </DialogDescription>
      </DialogHeader>

      {created ? (
        <NewKey apiKey={created} onDone={() => setCreated(null)} />
      ) : (
        <div>
          <Button onClick={createKey} disabled={create.isPending || !source.active}>
            {create.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
            Create Key
          </Button>
          {!source.active && (
            <p className="mt-2 text-muted-foreground text-sm">
              The source is inactive: its keys are refused until it is activated.
            </p>
          )}
        </div>
      )}

      {view === 'error' ? (
        <LoadError
          message="The keys could not be loaded."
          onRetry={() => keys.refetch()}
          retrying={keys.isFetching}
        />
      ) : view === 'loading' ? (
        <div className="grid gap-2" data-testid="key-row-skeleton">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : view === 'empty' ? (
        <p className="py-4 text-center text-muted-foreground text-sm" data-testid="list-empty">
          No keys yet
        </p>
      ) : (
        <ul className="grid gap-2" aria-label="API keys">
          {list.map((key) => (
            <li
              key={key.id}
              data-testid="key-row"
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-md border p-3"
            >
              <div className="grid min-w-0 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
                  <code className="font-mono text-sm">{key.prefix}…</code>
                  {key.revokedAt && <Badge variant="secondary">Revoked</Badge>}
                </div>
                <p className="text-muted-foreground text-xs">
                  Created {formatBusinessTime(key.createdAt, timeZone)} · Last used{' '}
                  {key.lastUsedAt ? formatBusinessTime(key.lastUsedAt, timeZone) : 'never'}
                  {key.revokedAt && ` · Revoked ${formatBusinessTime(key.revokedAt, timeZone)}`}
                </p>
              </div>
              {!key.revokedAt && (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => setRevoking(key)}
                  aria-label={`Revoke key ${key.prefix}`}
                >
                  Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title="Revoke this key?"
        description={
          <>
            Requests with the key <code>{revoking?.prefix}…</code> are refused at once (401). This
            cannot be undone: the source's system will need a new key.
          </>
        }
        confirmLabel="Revoke Key"
        cancelLabel="Cancel"
        onConfirm={confirmRevoke}
        pending={revoke.isPending}
        destructive
        testId="revoke-dialog"
      />
    </div>
  );
}

/** The new key, whole, this once: a Copy button and the warning that it will not come back. */
function NewKey({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey.key);
      setCopied(true);
      toast({ title: 'Key copied' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: 'Select the key and copy it by hand',
      });
    }
  }
  return (
    <div
      className="grid gap-3 rounded-md border border-amber-600 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950 dark:text-amber-50"
      data-testid="new-key"
      role="status"
    >
      <p className="flex items-start gap-2 font-medium text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Copy this key now: it is shown only once and cannot be seen again.
      </p>
      <code
        className="block select-all break-all rounded bg-white p-2 font-mono text-foreground text-sm dark:bg-black"
        data-testid="new-key-value"
      >
        {apiKey.key}
      </code>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={copy}>
          <Copy aria-hidden="true" />
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button size="sm" variant="outline" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </div>
  );
}
