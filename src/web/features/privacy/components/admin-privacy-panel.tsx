import { toE164 } from '@shared/phone';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@web/components/layout/page-header';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Pager } from '@web/components/ui/pager';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { ShieldOff, UserX } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { deletionsQuery, useDeleteConsumer } from '../api';
import { DeletionsTable } from './deletions-table';

const PAGE_SIZE = 50;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The consumer's phone and email as typed, checked before anything is asked of the server. */
function checkContact(phone: string, email: string): string | null {
  if (!phone.trim() && !email.trim()) return 'Enter the consumer’s phone, email or both';
  if (phone.trim() && !toE164(phone)) return 'Enter a valid phone number, e.g. (305) 555-0123';
  if (email.trim() && !EMAIL_RE.test(email.trim())) return 'Enter a valid email address';
  return null;
}

/** The form: a consumer's phone and email, a confirmation, then the outcome. */
function DeletionForm() {
  const remove = useDeleteConsumer();
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkContact(phone, email);
    setProblem(found);
    if (!found) setConfirming(true);
  }

  function confirm() {
    remove.mutate(
      { phone: phone.trim() || undefined, email: email.trim() || undefined },
      {
        onSuccess: (deletion) => {
          setConfirming(false);
          setPhone('');
          setEmail('');
          toast({
            title: `Consumer deleted: ${deletion.leads.toLocaleString('en-US')} ${deletion.leads === 1 ? 'lead' : 'leads'} anonymized`,
            description: 'They will be refused at import and intake from now on.',
          });
        },
        onError: (error) => {
          setConfirming(false);
          toast({
            variant: 'destructive',
            title: 'The consumer could not be deleted',
            description: errorMessage(error, 'Failed to delete the consumer'),
          });
        },
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Delete a consumer</h2>
        </CardTitle>
        <p className="text-muted-foreground text-sm">
          For a request to delete or not sell personal data. Every lead with this phone or email
          loses its name, contact, address, consent, call recordings and message texts; its status
          and the counts stay. Each agent's CRM that received one is sent a signed{' '}
          <code>lead.deleted</code> event, and the consumer is refused if a vendor sends them again.
          Only a keyed hash of the phone and email is kept.
        </p>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          className="grid gap-4 md:grid-cols-[1fr_1fr_auto] md:items-end"
          noValidate
        >
          <div className="space-y-2">
            <Label htmlFor="privacy-phone">Phone</Label>
            <Input
              id="privacy-phone"
              type="tel"
              inputMode="tel"
              autoComplete="off"
              placeholder="(305) 555-0123"
              maxLength={40}
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              aria-invalid={problem !== null}
              aria-describedby={problem ? 'privacy-problem' : undefined}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor="privacy-email">Email</Label>
            <Input
              id="privacy-email"
              type="email"
              autoComplete="off"
              placeholder="name@example.com"
              maxLength={200}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-invalid={problem !== null}
              aria-describedby={problem ? 'privacy-problem' : undefined}
            />
          </div>
          <Button type="submit" variant="destructive" disabled={remove.isPending}>
            {remove.isPending ? <Spinner /> : <UserX aria-hidden="true" />}
            Delete Consumer
          </Button>
        </form>
        {problem && (
          <p id="privacy-problem" className="mt-2 text-destructive text-sm" role="alert">
            {problem}
          </p>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) setConfirming(false);
        }}
        title="Delete this consumer's data?"
        description="Their leads are anonymized for good, and they cannot be received again. This cannot be undone."
        confirmLabel="Delete"
        cancelLabel="Cancel"
        onConfirm={confirm}
        pending={remove.isPending}
        destructive
        testId="privacy-confirm-dialog"
      />
    </Card>
  );
}

/** The Privacy screen (docs/domain.md, Consumer deletion and retention): the form and past requests. */
export function AdminPrivacyPanel() {
  const timeZone = useBusinessTimeZone();
  const [offset, setOffset] = useState(0);
  const list = useQuery(deletionsQuery({ limit: PAGE_SIZE, offset }));
  const data = list.data;
  const rows = data?.items ?? [];
  return (
    <>
      <PageHeader
        title="Privacy"
        description="Consumers' requests to delete their data, and what was done for each"
      />
      <DeletionForm />
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <DeletionsTable
            rows={rows}
            timeZone={timeZone}
            view={listView(list, rows.length)}
            error={{
              message: 'The deletion requests could not be loaded.',
              onRetry: () => list.refetch(),
              retrying: list.isFetching,
            }}
            empty={
              <div className="flex flex-col items-center gap-3 py-4">
                <ShieldOff className="size-10" aria-hidden="true" />
                <p>No deletion requests yet</p>
              </div>
            }
          />
        </CardContent>
      </Card>
      {data && data.total > PAGE_SIZE && (
        <Pager
          range={`Showing ${(offset + 1).toLocaleString('en-US')}–${Math.min(offset + PAGE_SIZE, data.total).toLocaleString('en-US')} of ${data.total.toLocaleString('en-US')}`}
          offset={offset}
          pageSize={PAGE_SIZE}
          isLast={offset + PAGE_SIZE >= data.total}
          fetching={list.isFetching}
          onOffset={setOffset}
        />
      )}
    </>
  );
}
