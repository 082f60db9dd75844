import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useForgotPassword } from '../api';

/** Asks for a reset link; the answer is the same whether or not the email has an account. */
export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const [email, setEmail] = useState('');
  const busy = forgot.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    forgot.mutate(email, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Request failed',
          description: errorMessage(error, 'Unable to send the link'),
        }),
    });
  }

  if (forgot.isSuccess) {
    return (
      <p role="status" className="text-sm" data-testid="forgot-password-sent">
        {forgot.data.message}
      </p>
    );
  }
  return (
    <form onSubmit={handleSubmit} className="grid gap-4" aria-busy={busy}>
      <FormField
        id="forgot-email"
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        required
        disabled={busy}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner />}
        Send Reset Link
      </Button>
    </form>
  );
}
