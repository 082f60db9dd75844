import type { AdminAgent } from '@shared/contracts/admin';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { useAccountLink, useDecideApproval } from '../api';
import { AccountLinkDialog } from './account-link-dialog';

/** Approve or Refuse an agent waiting for approval (docs/domain.md, Accounts). */
export function ApprovalActions({ agent }: { agent: AdminAgent }) {
  const decide = useDecideApproval();
  const act = (approve: boolean) =>
    decide.mutate(
      { agentId: agent.id, approve },
      {
        onSuccess: () =>
          toast({
            title: approve ? 'Agent approved' : 'Agent refused',
            description: approve
              ? `${agent.name} can now work and receive leads`
              : `${agent.name} cannot log in`,
          }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: errorMessage(error, 'Failed to decide'),
          }),
      },
    );
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" disabled={decide.isPending} onClick={() => act(true)}>
        Approve
      </Button>
      <Button size="sm" variant="outline" disabled={decide.isPending} onClick={() => act(false)}>
        Refuse
      </Button>
    </div>
  );
}

/** "Reset link": a password reset link the admin hands over when the portal sends no email. */
export function ResetLinkAction({ agent }: { agent: AdminAgent }) {
  const link = useAccountLink();
  const [url, setUrl] = useState<string | null>(null);
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        disabled={link.isPending}
        aria-label={`Reset link for ${agent.name}`}
        onClick={() =>
          link.mutate(
            { resetFor: agent.id },
            {
              onSuccess: (answer) => setUrl(answer.url),
              onError: (error) =>
                toast({
                  variant: 'destructive',
                  title: 'Reset link failed',
                  description: errorMessage(error, 'Failed to make the link'),
                }),
            },
          )
        }
      >
        Reset link
      </Button>
      <AccountLinkDialog
        url={url}
        title={`Reset link for ${agent.name}`}
        description="Hand this link to the agent: it sets a new password once, within 30 minutes."
        onClose={() => setUrl(null)}
      />
    </>
  );
}

/** "Invite link": a sign-up link for one new agent, valid 7 days (REGISTRATION=invite). */
export function InviteLinkAction() {
  const link = useAccountLink();
  const [url, setUrl] = useState<string | null>(null);
  return (
    <>
      <Button
        variant="outline"
        disabled={link.isPending}
        onClick={() =>
          link.mutate(
            { invite: true },
            {
              onSuccess: (answer) => setUrl(answer.url),
              onError: (error) =>
                toast({
                  variant: 'destructive',
                  title: 'Invite failed',
                  description: errorMessage(error, 'Failed to make the link'),
                }),
            },
          )
        }
      >
        Invite link
      </Button>
      <AccountLinkDialog
        url={url}
        title="Invite link"
        description="Hand this link to the new agent: it registers one account, within 7 days."
        onClose={() => setUrl(null)}
      />
    </>
  );
}
