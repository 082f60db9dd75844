import { MIN_PASSWORD_LENGTH } from '@shared/domain';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { useResetPassword } from '../api';

/** New Password and Confirm for the emailed (or handed over) link's token. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const busy = reset.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirm) {
      toast({
        variant: 'destructive',
        title: 'Password mismatch',
        description: 'Passwords do not match',
      });
      return;
    }
    reset.mutate(
      { token, password },
      {
        onSuccess: ({ message }) => {
          toast({ title: 'Password changed', description: message });
          navigate(paths.login);
        },
        onError: (err) => {
          setError(formFieldErrors(err, ['password'] as const).password);
          toast({
            variant: 'destructive',
            title: 'Reset failed',
            description: errorMessage(err, 'Unable to reset the password'),
          });
        },
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" aria-busy={busy}>
      <FormField
        id="reset-password"
        label="New Password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
        required
        disabled={busy}
        value={password}
        error={error}
        onChange={(event) => {
          setPassword(event.target.value);
          setError(undefined);
        }}
      />
      <FormField
        id="reset-confirm"
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        required
        disabled={busy}
        value={confirm}
        onChange={(event) => setConfirm(event.target.value)}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner />}
        Set Password
      </Button>
    </form>
  );
}
