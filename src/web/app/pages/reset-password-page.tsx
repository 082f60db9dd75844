import { AuthLayout } from '@web/components/layout/auth-layout';
import { ResetPasswordForm } from '@web/features/auth/components/reset-password-form';
import { Link, useSearch } from 'wouter';
import { paths } from '../paths';

/** The emailed link's page: /reset-password?token=... */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  return (
    <AuthLayout
      title="Choose a new password"
      description="The link works once, for 30 minutes"
      footer={
        <Link
          href={paths.forgotPassword}
          className="font-medium text-foreground underline underline-offset-4"
        >
          Send a new link
        </Link>
      }
    >
      <title>Reset Password · LeadFlow</title>
      {token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="text-sm">
          This reset link has expired or was already used
        </p>
      )}
    </AuthLayout>
  );
}
