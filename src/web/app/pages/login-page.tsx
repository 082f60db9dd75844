import { AuthLayout } from '@web/components/layout/auth-layout';
import { useRegistrationMode } from '@web/features/auth/api';
import { LoginForm } from '@web/features/auth/components/login-form';
import { Link } from 'wouter';
import { paths } from '../paths';

const linkClass = 'font-medium text-foreground underline underline-offset-4';

export function LoginPage() {
  // by invitation only, sign-up opens from an invite link, never from here
  const invitesOnly = useRegistrationMode() === 'invite';
  return (
    <AuthLayout
      title="Sign in to LeadFlow"
      description="Enter your email and password to open your portal"
      footer={
        invitesOnly ? (
          <>New agents join through an invite link from an admin.</>
        ) : (
          <>
            Don&apos;t have an account?{' '}
            <Link href={paths.register} className={linkClass}>
              Sign up
            </Link>
          </>
        )
      }
    >
      <title>Log In · LeadFlow</title>
      <LoginForm />
      <p className="text-center text-sm">
        <Link href={paths.forgotPassword} className={linkClass}>
          Forgot password?
        </Link>
      </p>
    </AuthLayout>
  );
}
