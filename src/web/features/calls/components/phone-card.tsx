import type { AgentServices } from '@shared/contracts/calls';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { Phone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useSaveProfile } from '../api';

/** The agent's own phone: click-to-call rings it, and {agentPhone} in messages is it. */
export function PhoneCard({ services }: { services: AgentServices }) {
  const [phone, setPhone] = useState(services.phone ? formatPhone(services.phone) : '');
  const save = useSaveProfile();
  const fieldError = fieldIssues(save.error).find((i) => i.field === 'phone')?.message;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      { phone: phone.trim() === '' ? null : phone },
      {
        onSuccess: (saved) => {
          setPhone(saved.phone ? formatPhone(saved.phone) : '');
          toast({ title: saved.phone ? 'Phone number saved' : 'Phone number removed' });
        },
        onError: (error) => {
          if (fieldIssues(error).length === 0)
            toast({
              variant: 'destructive',
              title: 'Not saved',
              description: errorMessage(error, 'The phone number could not be saved'),
            });
        },
      },
    );
  }
  return (
    <Card data-testid="phone-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <Phone className="size-5" aria-hidden="true" />
            Your Phone
          </h2>
        </CardTitle>
        <CardDescription>
          Click-to-call rings this number first, then connects you to the lead.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1">
            <FormField
              label="Phone number"
              name="phone"
              type="tel"
              autoComplete="tel"
              placeholder="(305) 555-0123"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
              error={fieldError}
              hint="A US number, or any number with its + country code."
            />
          </div>
          <Button type="submit" className="sm:mt-[22px]" disabled={save.isPending}>
            {save.isPending && <Spinner />}
            Save Phone
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
