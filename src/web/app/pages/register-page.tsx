import { AuthLayout } from '@web/components/layout/auth-layout';
import { useRegistrationMode } from '@web/features/auth/api';
import { RegisterForm } from '@web/features/auth/components/register-form';
import { Link, useSearch } from 'wouter';
import { paths } from '../paths';

/** What the screen says under its title, for each REGISTRATION mode (docs/domain.md, Accounts). */
const DESCRIPTION = {
  open: 'Join LeadFlow and start receiving qualified leads',
  approval: 'Join LeadFlow. An admin will approve your account',
  invite: 'Join LeadFlow with your invite',
} as const;

export function RegisterPage() {
  const mode = useRegistrationMode() ?? 'open';
  const search = new URLSearchParams(useSearch());
  const invite = search.get('invite') ?? undefined;
  // an agency's join link sends its code: the account joins the agency as it is created
  const agencyInvite = search.get('agencyInvite') ?? undefined;
  const closed = mode === 'invite' && !invite && !agencyInvite;
  return (
    <AuthLayout
      title="Create your account"
      description={DESCRIPTION[mode]}
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
      {closed ? (
        <p role="status" className="text-sm" data-testid="invite-only">
          Registration is by invitation only: ask an admin for an invite link
        </p>
      ) : (
        <RegisterForm invite={invite} agencyInvite={agencyInvite} />
      )}
    </AuthLayout>
  );
}
