import type { TotpSetupResponse } from '@shared/contracts/auth';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import {
  useTotpEnable,
  useTotpSetup,
  useTwoFactorDisable,
  useTwoFactorRefresh,
  useTwoFactorStatus,
} from '../api';

/**
 * "Two-factor authentication" (docs/domain.md, Accounts: two factors): set up TOTP (the QR code,
 * the secret for typing in, a code to confirm, then the ten recovery codes shown once), or turn it
 * off with a current code or a recovery code.
 */
export function TwoFactorCard({ required = false }: { required?: boolean }) {
  const status = useTwoFactorStatus();
  const refresh = useTwoFactorRefresh();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enabled = status.data?.enabled ?? false;
  // a passkey turns two factors on as well (the Passkeys card)
  const on = enabled || (status.data?.passkeys ?? 0) > 0;

  return (
    <Card data-testid="two-factor-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2">
            Two-factor authentication
            {status.data && (
              <Badge variant={on ? 'default' : 'secondary'}>{on ? 'On' : 'Off'}</Badge>
            )}
          </h2>
        </CardTitle>
        <CardDescription>
          {required && !on
            ? 'Your account must use two-factor authentication: set up an authenticator app or a passkey to continue.'
            : 'After your password, LeadFlow asks for a code from an authenticator app on your phone (or for one of your passkeys).'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <Spinner />
        ) : recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
        ) : enabled ? (
          <TurnOff left={status.data?.recoveryCodesLeft ?? 0} />
        ) : (
          <SetUp
            onEnabled={(codes) => {
              // the codes first: the card shows them, whatever the status says next
              setRecoveryCodes(codes);
              refresh();
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}

function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const [pending, setPending] = useState<TotpSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  if (!pending) {
    return (
      <Button
        disabled={setup.isPending}
        onClick={() =>
          setup.mutate(undefined, {
            onSuccess: setPending,
            onError: (err) =>
              toast({
                variant: 'destructive',
                title: 'Setup failed',
                description: errorMessage(err, 'Unable to start the setup'),
              }),
          })
        }
      >
        {setup.isPending && <Spinner />}
        Set up authenticator app
      </Button>
    );
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    enable.mutate(code, {
      onSuccess: ({ recoveryCodes }) => {
        toast({ title: 'Two-factor authentication is on' });
        onEnabled(recoveryCodes);
      },
      onError: (err) => setError(errorMessage(err, 'This code is not valid')),
    });
  }

  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr]">
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pending.qrSvg)}`}
        alt="QR code to scan with your authenticator app"
        className="size-44 rounded-md border bg-white p-1"
        data-testid="totp-qr"
      />
      <form onSubmit={handleSubmit} className="grid max-w-md content-start gap-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm">
          <li>Scan the QR code with an authenticator app (Google Authenticator, 1Password…).</li>
          <li>Or type this key in by hand:</li>
        </ol>
        <code
          className="break-words rounded-md bg-muted px-3 py-2 font-mono text-sm"
          data-testid="totp-secret"
        >
          {pending.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
        <FormField
          id="totp-code"
          label="Code from the app"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          maxLength={32}
          placeholder="123456"
          disabled={enable.isPending}
          value={code}
          error={error}
          onChange={(event) => {
            setCode(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" className="w-fit" disabled={enable.isPending}>
          {enable.isPending && <Spinner />}
          Turn on
        </Button>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="grid max-w-md gap-4">
      <p className="text-sm">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone.{' '}
        <strong>They are shown only now.</strong>
      </p>
      <ul
        className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm"
        data-testid="recovery-codes"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            navigator.clipboard.writeText(codes.join('\n')).then(
              () => toast({ title: 'Recovery codes copied' }),
              () =>
                toast({
                  variant: 'destructive',
                  title: 'Copy failed',
                  description: 'Select the codes and copy them yourself',
                }),
            )
          }
        >
          Copy codes
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </div>
  );
}

function TurnOff({ left }: { left: number }) {
  const disable = useTwoFactorDisable();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    disable.mutate(code, {
      onSuccess: () => {
        setCode('');
        toast({ title: 'Two-factor authentication is off' });
      },
      onError: (err) => setError(errorMessage(err, 'This code is not valid')),
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-md gap-4" data-testid="two-factor-off">
      <p className="text-sm">On: each sign-in asks for a code. {left} of 10 recovery codes left.</p>
      <FormField
        id="totp-off-code"
        label="Current code or a recovery code"
        name="code"
        autoComplete="one-time-code"
        required
        maxLength={32}
        disabled={disable.isPending}
        value={code}
        error={error}
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit" variant="destructive" className="w-fit" disabled={disable.isPending}>
        {disable.isPending && <Spinner />}
        Turn off
      </Button>
    </form>
  );
}
