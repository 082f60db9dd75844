import type { AdminAgent } from '@shared/contracts/admin';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { useAccountLink, useDecideApproval, useResetTwoFactor } from '../api';
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

/**
 * "Reset 2FA": the agent lost their phone or passkey (docs/domain.md, Accounts: two factors). After
 * a confirmation, their authenticator app, recovery codes and passkeys are removed and they are
 * signed out; they sign in with the password and may set two factors up again.
 */
export function ResetTwoFactorAction({ agent }: { agent: AdminAgent }) {
  const reset = useResetTwoFactor();
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="outline" aria-label={`Reset two-factor for ${agent.name}`}>
          Reset 2FA
        </Button>
      }
      title={`Reset two-factor authentication of ${agent.name}?`}
      description="Their authenticator app, recovery codes and passkeys are removed and they are signed out everywhere. Do this only once you know it is them asking: they then sign in with the password alone."
      confirmLabel="Reset 2FA"
      cancelLabel="Cancel"
      destructive
      pending={reset.isPending}
      testId="reset-two-factor-dialog"
      onConfirm={() =>
        reset.mutate(agent.id, {
          onSuccess: (answer) => {
            setOpen(false);
            toast({
              title: 'Two-factor authentication reset',
              description:
                answer.totp || answer.passkeys > 0
                  ? `${agent.name} is signed out and signs in with the password.`
                  : `${agent.name} had no second factor; they are signed out.`,
            });
          },
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: 'Reset failed',
              description: errorMessage(error, 'Failed to reset'),
            }),
        })
      }
    />
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
