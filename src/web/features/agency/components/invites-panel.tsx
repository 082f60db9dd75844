import type { AgencyInvite, AgencyMember, MyAgency } from '@shared/contracts/agency';
import { AGENCY_INVITE_DAYS, AGENCY_INVITE_MAX_DAYS, INVITE_ROLES } from '@shared/contracts/agency';
import { formatBusinessTime } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { type DataColumn, DataTable } from '@web/components/ui/data-table';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@web/components/ui/dialog';
import { FormField } from '@web/components/ui/form-field';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { Copy, UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  agencyRoleLabel,
  inviteState,
  inviteUses,
  managerChoices,
  optionalNumber,
} from '../agency-display';
import { agencyInvitesQuery, useCreateInvite, useDeleteInvite } from '../api';
import { ListCard } from './list-card';

const OWNERS_OWN = 'OWNER_OWN';
const FIELDS = ['maxUses', 'expiresInDays'] as const;

/** The invite link, shown once (only its hash is kept), with Copy. */
function InviteLinkDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  return (
    <Dialog open={url !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent data-testid="invite-link-dialog">
        <DialogHeader>
          <DialogTitle>Invite link</DialogTitle>
          <DialogDescription>
            Send this link to the agent you invite. It is shown only now: copy it before you close
            this window.
          </DialogDescription>
        </DialogHeader>
        <Input
          readOnly
          value={url ?? ''}
          aria-label="Invite link"
          data-testid="invite-link"
          onFocus={(event) => event.target.select()}
        />
        <DialogFooter>
          <Button
            onClick={() =>
              navigator.clipboard
                ?.writeText(url ?? '')
                .then(() => toast({ title: 'Link copied' }))
                .catch(() => toast({ title: 'Select the link and copy it' }))
            }
          >
            <Copy aria-hidden="true" />
            Copy
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The invite form: role, manager (the owner only), how many may join, how many days it works. */
function InviteDialog({ mine, members }: { mine: MyAgency; members: AgencyMember[] }) {
  const create = useCreateInvite();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [role, setRole] = useState<(typeof INVITE_ROLES)[number]>('AGENT');
  const [managerId, setManagerId] = useState(OWNERS_OWN);
  const [maxUses, setMaxUses] = useState('');
  const [days, setDays] = useState(String(AGENCY_INVITE_DAYS));
  const [errors, setErrors] = useState<Partial<Record<(typeof FIELDS)[number], string>>>({});
  const owner = mine.role === 'OWNER';
  const managers = managerChoices(members).filter((m) => m.role === 'MANAGER');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate(
      {
        role: owner ? role : 'AGENT',
        // a manager's invites are into their own team, whatever is sent
        managerId: owner && role === 'AGENT' && managerId !== OWNERS_OWN ? Number(managerId) : null,
        maxUses: optionalNumber(maxUses),
        expiresInDays: optionalNumber(days) ?? AGENCY_INVITE_DAYS,
      },
      {
        onSuccess: (created) => {
          setOpen(false);
          setErrors({});
          setUrl(created.url);
        },
        onError: (error) => {
          setErrors(formFieldErrors(error, FIELDS));
          toast({
            variant: 'destructive',
            title: 'Could not create the invite',
            description: errorMessage(error, 'Failed to create the invite'),
          });
        },
      },
    );
  }

  return (
    <>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button>
            <UserPlus aria-hidden="true" />
            Invite
          </Button>
        </DialogTrigger>
        <DialogContent data-testid="invite-dialog">
          <DialogHeader>
            <DialogTitle>Invite to {mine.agency.name}</DialogTitle>
            <DialogDescription>
              A link that lets agents join your agency. You see it once, then copy and send it.
            </DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={handleSubmit} aria-busy={create.isPending}>
            {owner && (
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="grid gap-2">
                  <Label htmlFor="invite-role">Role</Label>
                  <Select value={role} onValueChange={(value) => setRole(value as typeof role)}>
                    <SelectTrigger id="invite-role" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {INVITE_ROLES.map((r) => (
                        <SelectItem key={r} value={r}>
                          {agencyRoleLabel(r)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                {role === 'AGENT' && (
                  <div className="grid gap-2">
                    <Label htmlFor="invite-manager">Manager</Label>
                    <Select value={managerId} onValueChange={setManagerId}>
                      <SelectTrigger id="invite-manager" className="w-full">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value={OWNERS_OWN}>You (the owner)</SelectItem>
                        {managers.map((m) => (
                          <SelectItem key={m.userId} value={String(m.userId)}>
                            {m.name}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </div>
                )}
              </div>
            )}
            {!owner && (
              <p className="text-muted-foreground text-sm">
                The link invites agents into your team.
              </p>
            )}
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField
                id="invite-max-uses"
                label="Max uses"
                type="number"
                min={1}
                placeholder="No limit"
                hint="Empty: any number until it expires"
                value={maxUses}
                error={errors.maxUses}
                onChange={(event) => setMaxUses(event.target.value)}
              />
              <FormField
                id="invite-days"
                label="Days it works"
                type="number"
                min={1}
                max={AGENCY_INVITE_MAX_DAYS}
                hint={`1 to ${AGENCY_INVITE_MAX_DAYS} days`}
                value={days}
                error={errors.expiresInDays}
                onChange={(event) => setDays(event.target.value)}
              />
            </div>
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending && <Spinner />}
                Create invite link
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      <InviteLinkDialog url={url} onClose={() => setUrl(null)} />
    </>
  );
}

function DeleteInviteButton({ invite }: { invite: AgencyInvite }) {
  const remove = useDeleteInvite();
  const [open, setOpen] = useState(false);
  const what = `${agencyRoleLabel(invite.role)} invite of ${invite.createdAt.slice(0, 10)}`;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="outline" aria-label={`Delete the ${what}`}>
          Delete
        </Button>
      }
      title="Delete this invite?"
      description="Its link admits nobody from now on. The members who joined with it stay."
      confirmLabel="Delete"
      cancelLabel="Keep"
      destructive
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(invite.id, {
          onSuccess: () => {
            setOpen(false);
            toast({ title: 'Invite deleted' });
          },
          onError: (error) => {
            setOpen(false);
            toast({
              variant: 'destructive',
              title: 'Could not delete',
              description: errorMessage(error, 'Failed to delete the invite'),
            });
          },
        })
      }
    />
  );
}

function inviteColumns(timeZone: string): DataColumn<AgencyInvite>[] {
  return [
    {
      header: 'Invite',
      phone: 'title',
      minWidth: 'min-w-28',
      cell: (invite) => (
        <>
          <div className="font-medium">{agencyRoleLabel(invite.role)}</div>
          <div className="font-normal text-muted-foreground text-xs">
            Manager: {invite.manager?.name ?? 'the owner'}
          </div>
        </>
      ),
    },
    {
      header: 'State',
      phone: 'badge',
      nowrap: true,
      cell: (invite) => {
        const state = inviteState(invite);
        return (
          <Badge variant={state === 'Usable' ? 'default' : 'secondary'} data-testid="invite-state">
            {state}
          </Badge>
        );
      },
    },
    { header: 'Joined', nowrap: true, cell: inviteUses },
    {
      header: 'Expires',
      minWidth: 'min-w-28',
      cell: (invite) => formatBusinessTime(invite.expiresAt, timeZone),
    },
    {
      header: 'Created by',
      minWidth: 'min-w-20',
      cell: (invite) => invite.createdBy?.name ?? '—',
    },
  ];
}

/** Invite (a link shown once) and the invites the caller may see, with Delete. */
export function InvitesPanel({ mine, members }: { mine: MyAgency; members: AgencyMember[] }) {
  const invites = useQuery(agencyInvitesQuery);
  const timeZone = useBusinessTimeZone();
  const list = invites.data ?? [];
  return (
    <section className="space-y-3" aria-labelledby="invites-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="invites-heading" className="font-semibold text-lg">
            Invites
          </h2>
          <p className="text-muted-foreground text-sm">Links that let agents join the agency.</p>
        </div>
        <InviteDialog mine={mine} members={members} />
      </div>
      <ListCard>
        <DataTable
          label="Invites"
          columns={inviteColumns(timeZone)}
          rows={list}
          rowKey={(invite) => invite.id}
          rowTestId="invite-row"
          view={listView(invites, list.length)}
          empty="No invites yet"
          error={{
            message: 'The invites could not be loaded.',
            onRetry: () => invites.refetch(),
            retrying: invites.isFetching,
          }}
          actions={{ header: 'Actions', cell: (invite) => <DeleteInviteButton invite={invite} /> }}
        />
      </ListCard>
    </section>
  );
}
