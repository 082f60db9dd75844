import type { PublicUser } from '@shared/contracts/auth';
import { paths } from '@web/app/paths';
import { AuthLayout } from '@web/components/layout/auth-layout';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { useLocation } from 'wouter';
import { useLogout } from '../api';

/**
 * All an agent sees until an admin approves the account (REGISTRATION=approval): every agent
 * route answers 403 meanwhile.
 */
export function WaitingForApproval({ user }: { user: PublicUser }) {
  const [, navigate] = useLocation();
  const logout = useLogout();
  const refused = user.approval === 'REFUSED';
  return (
    <AuthLayout
      title={refused ? 'Not approved' : 'Waiting for approval'}
      description={
        refused
          ? 'An admin did not approve your account'
          : 'An admin will approve your account. You will get leads once it is approved.'
      }
      footer={<>Signed in as {user.email}</>}
    >
      <title>{`${refused ? 'Not approved' : 'Waiting for approval'} · LeadFlow`}</title>
      <Button
        variant="outline"
        className="w-full"
        disabled={logout.isPending}
        onClick={() => logout.mutate(undefined, { onSettled: () => navigate(paths.login) })}
      >
        {logout.isPending && <Spinner />}
        Log Out
      </Button>
    </AuthLayout>
  );
}
