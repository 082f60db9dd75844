import { homeFor } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { useLogin } from '../api';

export function LoginForm() {
  const [, navigate] = useLocation();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const busy = login.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    login.mutate(
      { email, password },
      {
        onSuccess: ({ user }) => {
          toast({ title: 'Welcome back!', description: 'Login successful' });
          navigate(homeFor(user.role));
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Login failed',
            description: errorMessage(error, 'Invalid email or password'),
          });
        },
      },
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" aria-busy={busy} data-testid="login-form">
      <FormField
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
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        disabled={busy}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner />}
        Log In
      </Button>
    </form>
  );
}
