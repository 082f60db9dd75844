import type { AgentServices } from '@shared/contracts/calls';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { CircleCheck, Phone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useConfirmPhoneCode, useSaveProfile, useSendPhoneCode } from '../api';

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
              hint="A mobile or landline number of your own; premium-rate and toll-free numbers cannot be rung."
            />
          </div>
          <Button type="submit" className="sm:mt-[22px]" disabled={save.isPending}>
            {save.isPending && <Spinner />}
            Save Phone
          </Button>
        </form>
        {services.phone &&
          (services.phoneVerified ? (
            <p
              className="mt-3 flex items-center gap-2 text-sm text-emerald-700"
              data-testid="phone-verified"
            >
              <CircleCheck className="size-4" aria-hidden="true" />
              Verified: calls ring {formatPhone(services.phone)}
            </p>
          ) : (
            <PhoneVerification phone={services.phone} />
          ))}
      </CardContent>
    </Card>
  );
}

/** A code texted to the saved phone, typed back: proof the number is the agent's. */
function PhoneVerification({ phone }: { phone: string }) {
  const [code, setCode] = useState('');
  const send = useSendPhoneCode();
  const confirm = useConfirmPhoneCode();
  const codeError = fieldIssues(confirm.error).find((i) => i.field === 'code')?.message;
  function sendCode() {
    send.mutate(undefined, {
      onSuccess: () => toast({ title: `Code sent to ${formatPhone(phone)}` }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'No code sent',
          description: errorMessage(error, 'The code could not be sent'),
        }),
    });
  }
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    confirm.mutate(code.trim(), {
      onSuccess: () => toast({ title: 'Phone number verified' }),
      onError: (error) => {
        if (fieldIssues(error).length === 0)
          toast({
            variant: 'destructive',
            title: 'Not verified',
            description: errorMessage(error, 'The code could not be checked'),
          });
      },
    });
  }
  return (
    <div
      className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3"
      data-testid="phone-verification"
    >
      <p className="text-sm text-amber-900">
        Not verified yet. We text a 6-digit code to {formatPhone(phone)} to make sure it is yours;
        calls ring only a verified phone.
      </p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-start">
        <Button type="button" variant="outline" onClick={sendCode} disabled={send.isPending}>
          {send.isPending && <Spinner />}
          {send.isSuccess ? 'Send a new code' : 'Send code'}
        </Button>
        {send.isSuccess && (
          <form onSubmit={submit} className="flex flex-1 flex-col gap-3 sm:flex-row sm:items-start">
            <div className="flex-1">
              <FormField
                label="Verification code"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="123456"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
                error={codeError}
                hint="Good for 10 minutes and 5 tries."
              />
            </div>
            <Button
              type="submit"
              className="sm:mt-[22px]"
              disabled={confirm.isPending || code.length !== 6}
            >
              {confirm.isPending && <Spinner />}
              Verify
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
