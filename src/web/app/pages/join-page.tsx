import { AuthLayout } from '@web/components/layout/auth-layout';
import { JoinInvite } from '@web/features/agency/components/join-invite';
import { Link } from 'wouter';
import { paths } from '../paths';

/** `/join/<code>`: an agency's invite link (public). */
export function JoinPage({ code }: { code: string }) {
  return (
    <AuthLayout
      title="Join an agency"
      description="An invitation to an agency on LeadFlow"
      footer={
        <>
          New to LeadFlow?{' '}
          <Link
            href={paths.landing}
            className="font-medium text-foreground underline underline-offset-4"
          >
            See what it does
          </Link>
        </>
      }
    >
      <title>Join an agency · LeadFlow</title>
      <JoinInvite code={code} />
    </AuthLayout>
  );
}
