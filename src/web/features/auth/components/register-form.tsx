import { MIN_PASSWORD_LENGTH } from '@shared/domain';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { useRegister } from '../api';

const emptyForm = { name: '', email: '', password: '', confirmPassword: '' };
type RegisterFormValues = typeof emptyForm;

export function RegisterForm() {
  const [, navigate] = useLocation();
  const register = useRegister();
  const [values, setValues] = useState<RegisterFormValues>(emptyForm);
  const busy = register.isPending;

  const bind = (field: keyof RegisterFormValues) => ({
    name: field,
    value: values[field],
    disabled: busy,
    required: true,
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [field]: event.target.value })),
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (values.password !== values.confirmPassword) {
      toast({
        variant: 'destructive',
        title: 'Password mismatch',
        description: 'Passwords do not match',
      });
      return;
    }
    const { name, email, password } = values;
    register.mutate(
      { name, email, password },
      {
        onSuccess: () => {
          toast({
            title: 'Account created!',
            description: 'You can now log in with your credentials',
          });
          navigate(paths.login);
        },
        onError: (error) => {
          toast({
            variant: 'destructive',
            title: 'Registration failed',
            description: errorMessage(error, 'Unable to create account'),
          });
        },
      },
    );
  }

  return (
    <form
      onSubmit={handleSubmit}
      className="grid gap-4"
      aria-busy={busy}
      data-testid="register-form"
    >
      <FormField label="Full Name" autoComplete="name" placeholder="Jane Smith" {...bind('name')} />
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...bind('email')}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
        {...bind('password')}
      />
      <FormField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        {...bind('confirmPassword')}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <Spinner />}
        Create Account
      </Button>
    </form>
  );
}
