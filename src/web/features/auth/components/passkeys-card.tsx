import type { PasskeyItem } from '@shared/contracts/auth';
import { formatBusinessTime } from '@shared/format';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { type FormEvent, useState } from 'react';
import {
  passkeyErrorMessage,
  passkeysSupported,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useTwoFactorStatus,
} from '../api';

/**
 * "Passkeys" (docs/domain.md, Accounts: two factors): add one with a name (the device's own
 * prompt: fingerprint, face, PIN or security key), see each with when it was added and last used,
 * remove one. A passkey turns two factors on by itself and signs in from the login page without a
 * password; the last second factor is removed only with a passkey's confirmation.
 */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const status = useTwoFactorStatus();
  const list = passkeys.data?.passkeys ?? [];
  // removing this one leaves no second factor: the server wants a passkey's confirmation
  const lastFactor = !(status.data?.enabled ?? false) && list.length === 1;

  return (
    <Card data-testid="passkeys-card">
      <CardHeader>
        <CardTitle asChild>
          <h2>Passkeys</h2>
        </CardTitle>
        <CardDescription>
          Sign in with your fingerprint, face, device PIN or a security key, without typing a
          password. A passkey also counts as two-factor authentication.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {passkeys.isPending ? (
          <Spinner />
        ) : list.length === 0 ? (
          <p className="text-muted-foreground text-sm">No passkeys yet.</p>
        ) : (
          <ul className="divide-y rounded-md border" data-testid="passkey-list">
            {list.map((p) => (
              <PasskeyRow key={p.id} passkey={p} lastFactor={lastFactor} />
            ))}
          </ul>
        )}
        <AddPasskey />
      </CardContent>
    </Card>
  );
}

function PasskeyRow({ passkey, lastFactor }: { passkey: PasskeyItem; lastFactor: boolean }) {
  const remove = useRemovePasskey();
  const [open, setOpen] = useState(false);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-3">
      <div className="min-w-0">
        <div className="break-words font-medium">{passkey.name}</div>
        <div className="text-muted-foreground text-xs">
          Added {formatBusinessTime(passkey.createdAt)} ·{' '}
          {passkey.lastUsedAt
            ? `Last used ${formatBusinessTime(passkey.lastUsedAt)}`
            : 'Never used'}
        </div>
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button size="sm" variant="outline" aria-label={`Remove passkey ${passkey.name}`}>
            Remove
          </Button>
        }
        title={`Remove passkey "${passkey.name}"?`}
        description={
          lastFactor
            ? 'It is your last second factor: confirm with the passkey itself. Signing in will then need only your password.'
            : 'It will no longer sign you in.'
        }
        confirmLabel={lastFactor ? 'Confirm with passkey and remove' : 'Remove'}
        cancelLabel="Keep it"
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(
            { id: passkey.id, confirm: lastFactor },
            {
              onSuccess: () => {
                setOpen(false);
                toast({ title: 'Passkey removed' });
              },
              onError: (err) =>
                toast({
                  variant: 'destructive',
                  title: 'Not removed',
                  description: passkeyErrorMessage(err, 'The passkey could not be removed'),
                }),
            },
          )
        }
      />
    </li>
  );
}

function AddPasskey() {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  if (!passkeysSupported()) {
    return <p className="text-sm">This browser cannot use passkeys.</p>;
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    add.mutate(name.trim(), {
      onSuccess: (passkey) => {
        setName('');
        toast({ title: 'Passkey added', description: `"${passkey.name}" signs you in now` });
      },
      onError: (err) => setError(passkeyErrorMessage(err, 'The passkey could not be added')),
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-md gap-4" data-testid="add-passkey">
      <FormField
        id="passkey-name"
        label="Name of the new passkey"
        name="passkeyName"
        required
        maxLength={60}
        placeholder="Work laptop"
        disabled={add.isPending}
        value={name}
        error={error}
        onChange={(event) => {
          setName(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" className="w-fit" disabled={add.isPending}>
        {add.isPending && <Spinner />}
        Add a passkey
      </Button>
    </form>
  );
}
