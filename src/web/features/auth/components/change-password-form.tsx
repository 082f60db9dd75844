import { MIN_PASSWORD_LENGTH } from '@shared/domain';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useChangePassword } from '../api';

const FIELDS = ['currentPassword', 'newPassword'] as const;
const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** A signed-in user's new password; the other sessions end, this one stays. */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const busy = change.isPending;

  const bind = (field: keyof typeof empty) => ({
    name: field,
    type: 'password',
    required: true,
    disabled: busy,
    value: values[field],
    error: field === 'confirmPassword' ? undefined : errors[field],
    onChange: (event: { target: { value: string } }) => {
      setValues((current) => ({ ...current, [field]: event.target.value }));
      setErrors(({ [field as (typeof FIELDS)[number]]: _changed, ...rest }) => rest);
    },
  });

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (values.newPassword !== values.confirmPassword) {
      toast({
        variant: 'destructive',
        title: 'Password mismatch',
        description: 'Passwords do not match',
      });
      return;
    }
    const { currentPassword, newPassword } = values;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setValues(empty);
          toast({
            title: 'Password changed',
            description: 'Your other sessions were signed out',
          });
        },
        onError: (error) => {
          setErrors(formFieldErrors(error, FIELDS));
          toast({
            variant: 'destructive',
            title: 'Change failed',
            description: errorMessage(error, 'Unable to change the password'),
          });
        },
      },
    );
  }

  return (
    <form
      onSubmit={handleSubmit}
      className="grid max-w-md gap-4"
      aria-busy={busy}
      data-testid="change-password-form"
    >
      <FormField
        id="change-current"
        label="Current Password"
        autoComplete="current-password"
        {...bind('currentPassword')}
      />
      <FormField
        id="change-new"
        label="New Password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
        {...bind('newPassword')}
      />
      <FormField
        id="change-confirm"
        label="Confirm Password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD_LENGTH}
        {...bind('confirmPassword')}
      />
      <Button type="submit" className="w-fit" disabled={busy}>
        {busy && <Spinner />}
        Change Password
      </Button>
    </form>
  );
}
