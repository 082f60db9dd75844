import { AuthLayout } from '@web/components/layout/auth-layout';
import { ForgotPasswordForm } from '@web/features/auth/components/forgot-password-form';
import { Link } from 'wouter';
import { paths } from '../paths';

export function ForgotPasswordPage() {
  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter your email and we will send you a link to choose a new one"
      footer={
        <Link
          href={paths.login}
          className="font-medium text-foreground underline underline-offset-4"
        >
          Back to Log In
        </Link>
      }
    >
      <title>Forgot Password · LeadFlow</title>
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
