import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { type FormEvent, useState } from 'react';
import { useCreateAgency } from '../api';

/** An agent in no agency: what an agency is, and a form to create one (they become its owner). */
export function CreateAgencyCard() {
  const create = useCreateAgency();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate(name, {
      onSuccess: (mine) =>
        toast({
          title: 'Agency created',
          description: `You own ${mine.agency.name}. Invite your agents from Members.`,
        }),
      onError: (failure) => {
        setError(formFieldErrors(failure, ['name'] as const).name);
        toast({
          variant: 'destructive',
          title: 'Could not create the agency',
          description: errorMessage(failure, 'Failed to create the agency'),
        });
      },
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card data-testid="agency-explainer">
        <CardHeader>
          <CardTitle asChild>
            <h2 className="text-lg">What is an agency?</h2>
          </CardTitle>
          <CardDescription>
            An agency is an owner and their downline working leads together.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="list-disc space-y-2 pl-5 text-sm">
            <li>Invite agents and managers with a link; each manager leads a team.</li>
            <li>Pay your members&apos; packages from the agency.</li>
            <li>See every member&apos;s leads, conversions and speed to lead in one place.</li>
            <li>
              Move a lead to another member, cap the agency&apos;s leads a day, and take back leads
              nobody works in time.
            </li>
          </ul>
          <p className="mt-4 text-muted-foreground text-sm">
            Joining someone else&apos;s agency? Open the invite link they sent you.
          </p>
        </CardContent>
      </Card>
      <Card className="lg:self-start">
        <CardHeader>
          <CardTitle asChild>
            <h2 className="text-lg">Create an agency</h2>
          </CardTitle>
          <CardDescription>
            You become its owner. You keep receiving your own leads.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-4" onSubmit={handleSubmit} aria-busy={create.isPending}>
            <FormField
              id="agency-name"
              label="Agency name"
              placeholder="Sunrise Insurance Group"
              required
              maxLength={100}
              value={name}
              error={error}
              disabled={create.isPending}
              onChange={(event) => {
                setName(event.target.value);
                setError(undefined);
              }}
            />
            <Button type="submit" className="w-full sm:w-fit" disabled={create.isPending}>
              {create.isPending && <Spinner />}
              Create an agency
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
