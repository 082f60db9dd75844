import type { PublicUser } from '@shared/contracts/auth';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import {
  passkeyErrorMessage,
  passkeysSupported,
  useVerifyTwoFactor,
  useVerifyWithPasskey,
} from '../api';

/**
 * The login's second step (docs/domain.md, Accounts: two factors): the 6-digit code of the
 * authenticator app, or one of the recovery codes, or "Use a passkey" when the user has one (the
 * only way when they have no authenticator app). The pending login is kept by the server for 5
 * minutes; once it has lapsed, the user starts again from the password.
 */
export function TwoFactorCodeForm({
  methods = { totp: true, passkey: false },
  onSignedIn,
  onRestart,
}: {
  methods?: { totp: boolean; passkey: boolean };
  onSignedIn: (user: PublicUser) => void;
  onRestart: () => void;
}) {
  const verify = useVerifyTwoFactor();
  const byPasskey = useVerifyWithPasskey();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const busy = verify.isPending || byPasskey.isPending;
  const passkey = methods.passkey && passkeysSupported();

  function expired() {
    toast({
      variant: 'destructive',
      title: 'Sign-in expired',
      description: 'Enter your email and password again.',
    });
    onRestart();
  }

  function verifyWithPasskey() {
    byPasskey.mutate(undefined, {
      onSuccess: ({ user }) => onSignedIn(user),
      onError: (err) => {
        if (err instanceof ApiError && err.status === 401) return expired();
        toast({
          variant: 'destructive',
          title: 'Passkey not accepted',
          description: passkeyErrorMessage(err, 'This passkey could not be verified'),
        });
      },
    });
  }

  if (!methods.totp) {
    return (
      <div className="grid gap-4" aria-busy={busy} data-testid="two-factor-code-form">
        <p className="text-muted-foreground text-sm">
          Confirm it is you with one of your passkeys.
        </p>
        <Button
          type="button"
          className="w-full"
          disabled={busy || !passkey}
          onClick={verifyWithPasskey}
        >
          {byPasskey.isPending && <Spinner />}
          Use a passkey
        </Button>
        {!passkey && <p className="text-sm">This browser cannot use passkeys.</p>}
        <Button type="button" variant="ghost" className="w-full" onClick={onRestart}>
          Use another account
        </Button>
      </div>
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    verify.mutate(code, {
      onSuccess: ({ user }) => onSignedIn(user),
      onError: (err) => {
        setCode('');
        // the pending login lapsed (5 minutes) or was used: back to the password
        if (err instanceof ApiError && err.status === 401) return expired();
        setError(errorMessage(err, 'This code is not valid'));
      },
    });
  }

  return (
    <form
      onSubmit={handleSubmit}
      className="grid gap-4"
      aria-busy={busy}
      data-testid="two-factor-code-form"
    >
      <p className="text-muted-foreground text-sm">
        Enter the 6-digit code from your authenticator app, or one of your recovery codes.
      </p>
      <FormField
        id="login-code"
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        autoFocus
        required
        maxLength={32}
        placeholder="123456"
        disabled={busy}
        value={code}
        error={error}
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {verify.isPending && <Spinner />}
        Verify
      </Button>
      {passkey && (
        <Button
          type="button"
          variant="outline"
          className="w-full"
          disabled={busy}
          onClick={verifyWithPasskey}
        >
          {byPasskey.isPending && <Spinner />}
          Use a passkey
        </Button>
      )}
      <Button type="button" variant="ghost" className="w-full" onClick={onRestart}>
        Use another account
      </Button>
    </form>
  );
}
