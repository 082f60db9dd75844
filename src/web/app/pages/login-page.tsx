import { AuthLayout } from '@web/components/layout/auth-layout';
import { LoginForm } from '@web/features/auth/components/login-form';
import { Link } from 'wouter';
import { paths } from '../paths';

export function LoginPage() {
  return (
    <AuthLayout
      title="Sign in to LeadFlow"
      description="Enter your email and password to open your portal"
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link
            href={paths.register}
            className="font-medium text-foreground underline underline-offset-4"
          >
            Sign up
          </Link>
        </>
      }
    >
      <title>Log In · LeadFlow</title>
      <LoginForm />
    </AuthLayout>
  );
}
