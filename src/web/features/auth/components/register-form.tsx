import { MIN_PASSWORD_LENGTH } from '@shared/domain';
import { loginFor, paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useWhenIdle } from '@web/hooks/use-when-idle';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import { useRegister } from '../api';

const emptyForm = { name: '', email: '', password: '', confirmPassword: '' };
type RegisterFormValues = typeof emptyForm;
const SENT_FIELDS = ['name', 'email', 'password'] as const;
type SentField = (typeof SENT_FIELDS)[number];

/**
 * invite: the invite link's token, sent with the form (REGISTRATION=invite); agencyInvite: an
 * agency's join code (the new account is its member from the start)
 */
export function RegisterForm({ invite, agencyInvite }: { invite?: string; agencyInvite?: string }) {
  const [, navigate] = useLocation();
  const register = useRegister();
  const [values, setValues] = useState<RegisterFormValues>(emptyForm);
  // what the server refused, field by field, until that field changes
  const [errors, setErrors] = useState<Partial<Record<SentField, string>>>({});
  const busy = register.isPending;
  const whenIdle = useWhenIdle(busy);

  const bind = (field: keyof RegisterFormValues) => ({
    name: field,
    value: values[field],
    disabled: busy,
    required: true,
    error: field === 'confirmPassword' ? undefined : errors[field],
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      setErrors(({ [field as SentField]: _changed, ...rest }) => rest);
    },
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
      {
        name,
        email,
        password,
        ...(invite ? { invite } : {}),
        ...(agencyInvite ? { agencyInvite } : {}),
      },
      {
        onSuccess: () => {
          toast({
            title: 'Account created!',
            description: 'You can now log in with your credentials',
          });
          // a join link (or another page) that sent the visitor here is where login leads back
          const next = agencyInvite
            ? paths.agent.agency
            : new URLSearchParams(window.location.search).get('next');
          navigate(next ? loginFor(next) : paths.login);
        },
        onError: (error) => {
          const refused = formFieldErrors(error, SENT_FIELDS);
          setErrors(refused);
          const first = SENT_FIELDS.find((field) => refused[field]);
          if (first) whenIdle(() => document.getElementById(`register-${first}`)?.focus());
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
      <FormField
        id="register-name"
        label="Full Name"
        autoComplete="name"
        placeholder="Jane Smith"
        {...bind('name')}
      />
      <FormField
        id="register-email"
        label="Email"
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...bind('email')}
      />
      <FormField
        id="register-password"
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
