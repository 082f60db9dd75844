import { AuthLayout } from '@web/components/layout/auth-layout';
import { RegisterForm } from '@web/features/auth/components/register-form';
import { Link } from 'wouter';
import { paths } from '../paths';

export function RegisterPage() {
  return (
    <AuthLayout
      title="Create your account"
      description="Join LeadFlow and start receiving qualified leads"
      footer={
        <>
          Already have an account?{' '}
          <Link
            href={paths.login}
            className="font-medium text-foreground underline underline-offset-4"
          >
            Log in
          </Link>
        </>
      }
    >
      <title>Sign Up · LeadFlow</title>
      <RegisterForm />
    </AuthLayout>
  );
}
