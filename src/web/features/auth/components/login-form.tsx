import type { PublicUser } from '@shared/contracts/auth';
import { afterLogin } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useWhenIdle } from '@web/hooks/use-when-idle';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { passkeyErrorMessage, useLogin, usePasskeySignIn, usePasskeysSupported } from '../api';
import { TwoFactorCodeForm } from './two-factor-code-form';

const FIELDS = ['email', 'password'] as const;

/** onCodeStep: the password was right and the code step shows (true), or the form is back (false). */
export function LoginForm({ onCodeStep }: { onCodeStep?: (on: boolean) => void } = {}) {
  const [, navigate] = useLocation();
  const login = useLogin();
  const passkeySignIn = usePasskeySignIn();
  const passkeys = usePasskeysSupported();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // what the server refused, field by field, until that field changes
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const busy = login.isPending || passkeySignIn.isPending;
  const whenIdle = useWhenIdle(busy);
  // the password was right and two factors are on: the code step (the pending login is the server's)
  const [codeStep, setCodeStep] = useState<{ totp: boolean; passkey: boolean } | null>(null);

  function signedIn(role: PublicUser['role']) {
    toast({ title: 'Welcome back!', description: 'Login successful' });
    navigate(afterLogin(role, new URLSearchParams(window.location.search).get('next')));
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    login.mutate(
      { email, password },
      {
        onSuccess: (answer) => {
          if ('user' in answer) signedIn(answer.user.role);
          else {
            setCodeStep(answer.methods);
            onCodeStep?.(true);
          }
        },
        onError: (error) => {
          const refused = formFieldErrors(error, FIELDS);
          setErrors(refused);
          const first = FIELDS.find((field) => refused[field]);
          if (first) whenIdle(() => document.getElementById(`login-${first}`)?.focus());
          toast({
            variant: 'destructive',
            title: 'Login failed',
            description: errorMessage(error, 'Invalid email or password'),
          });
        },
      },
    );
  }

  function signInWithPasskey() {
    passkeySignIn.mutate(undefined, {
      onSuccess: ({ user }) => signedIn(user.role),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Passkey sign-in failed',
          description: passkeyErrorMessage(error, 'This passkey could not be verified'),
        }),
    });
  }

  if (codeStep) {
    return (
      <TwoFactorCodeForm
        methods={codeStep}
        onSignedIn={(user) => signedIn(user.role)}
        onRestart={() => {
          setPassword('');
          setCodeStep(null);
          onCodeStep?.(false);
        }}
      />
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" aria-busy={busy} data-testid="login-form">
      <FormField
        id="login-email"
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        required
        disabled={busy}
        value={email}
        error={errors.email}
        onChange={(event) => {
          setEmail(event.target.value);
          setErrors(({ email: _changed, ...rest }) => rest);
        }}
      />
      <FormField
        id="login-password"
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        disabled={busy}
        value={password}
        error={errors.password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors(({ password: _changed, ...rest }) => rest);
        }}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {login.isPending && <Spinner />}
        Log In
      </Button>
      {passkeys && (
        <Button
          type="button"
          variant="outline"
          className="w-full"
          disabled={busy}
          onClick={signInWithPasskey}
        >
          {passkeySignIn.isPending ? <Spinner /> : <KeyRound aria-hidden="true" />}
          Sign in with a passkey
        </Button>
      )}
    </form>
  );
}
