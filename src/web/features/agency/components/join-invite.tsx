import { useQuery } from '@tanstack/react-query';
import { joinPath, loginFor, paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { LoadError } from '@web/components/ui/load-error';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useCurrentUser } from '@web/features/auth/api';
import { errorMessage } from '@web/lib/api-client';
import { Link, useLocation } from 'wouter';
import { withArticle } from '../agency-display';
import { inviteLookupQuery, isNotFound, myAgencyQuery, useJoinAgency } from '../api';

export const INVALID_INVITE =
  'This invite link is not valid any more. Ask the agency for a new one.';

function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-6" role="status">
      <Spinner className="size-6" label={label} />
    </div>
  );
}

/**
 * The join page's content (docs/domain.md, Agencies, "Joining"): who invites whom into which
 * agency, then Join for a signed-in agent, or Log in (back here) / Create account (the new account
 * joins as it is created, then logs in to the agency screen).
 */
export function JoinInvite({ code }: { code: string }) {
  const lookup = useQuery(inviteLookupQuery(code));
  const me = useCurrentUser();
  const agent = !!me.data && me.data.role !== 'ADMIN';
  const mine = useQuery({ ...myAgencyQuery, enabled: agent });
  const join = useJoinAgency();
  const [, navigate] = useLocation();
  const here = joinPath(code);

  if (lookup.isError) {
    return (
      <LoadError
        message="The invite could not be looked up."
        onRetry={() => lookup.refetch()}
        retrying={lookup.isFetching}
      />
    );
  }
  if (lookup.isPending) return <Loading label="Looking up the invite" />;
  const invite = lookup.data;
  if (!invite || (join.isError && isNotFound(join.error))) {
    return (
      <p role="alert" className="text-center" data-testid="invite-invalid">
        {INVALID_INVITE}
      </p>
    );
  }

  return (
    <div className="space-y-6" data-testid="join-invite">
      <p className="text-center text-lg">
        <strong>{invite.ownerName}</strong> invites you to join <strong>{invite.agencyName}</strong>{' '}
        as {withArticle(invite.role)}.
      </p>
      <p className="text-center text-muted-foreground text-sm">
        Members receive leads as usual; the agency may pay your package and sees the leads it gives
        you and how you work them.
      </p>
      {me.isPending ? (
        <Loading label="Checking your session" />
      ) : !me.data ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button asChild className="sm:flex-1">
            <Link href={loginFor(here)}>Log in</Link>
          </Button>
          <Button asChild variant="outline" className="sm:flex-1">
            <Link href={`${paths.register}?agencyInvite=${encodeURIComponent(code)}`}>
              Create account
            </Link>
          </Button>
        </div>
      ) : me.data.role === 'ADMIN' ? (
        <p className="text-center text-sm">
          You are signed in as an admin. Log in with your agent account to join.
        </p>
      ) : mine.data ? (
        <p className="text-center text-sm" data-testid="already-member">
          You are already a member of {mine.data.agency.name}. Leave it first to join another
          agency.{' '}
          <Link href={paths.agent.agency} className="underline underline-offset-4">
            Open your agency
          </Link>
        </p>
      ) : (
        <Button
          className="w-full"
          disabled={join.isPending || mine.isPending}
          onClick={() =>
            join.mutate(code, {
              onSuccess: (joined) => {
                toast({ title: 'Welcome!', description: `You joined ${joined.agency.name}` });
                navigate(paths.agent.agency);
              },
              onError: (error) => {
                if (isNotFound(error)) return;
                toast({
                  variant: 'destructive',
                  title: 'Could not join',
                  description: errorMessage(error, 'Failed to join the agency'),
                });
              },
            })
          }
        >
          {join.isPending && <Spinner />}
          Join {invite.agencyName}
        </Button>
      )}
    </div>
  );
}
