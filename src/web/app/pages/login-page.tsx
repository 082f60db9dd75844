import { AuthLayout } from '@web/components/layout/auth-layout';
import { useRegistrationMode } from '@web/features/auth/api';
import { LoginForm } from '@web/features/auth/components/login-form';
import { useState } from 'react';
import { Link } from 'wouter';
import { paths } from '../paths';

const linkClass = 'font-medium text-foreground underline underline-offset-4';

export function LoginPage() {
  // by invitation only, sign-up opens from an invite link, never from here
  const invitesOnly = useRegistrationMode() === 'invite';
  // two factors on: after the password, the code step (docs/domain.md, Accounts: two factors)
  const [codeStep, setCodeStep] = useState(false);
  return (
    <AuthLayout
      title={codeStep ? 'Two-factor authentication' : 'Sign in to LeadFlow'}
      description={
        codeStep
          ? 'One more step to open your portal'
          : 'Enter your email and password to open your portal'
      }
      footer={
        codeStep ? null : invitesOnly ? (
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
      <LoginForm onCodeStep={setCodeStep} />
      {!codeStep && (
        <p className="text-center text-sm">
          <Link href={paths.forgotPassword} className={linkClass}>
            Forgot password?
          </Link>
        </p>
      )}
    </AuthLayout>
  );
}
