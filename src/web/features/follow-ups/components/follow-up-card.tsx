import type { FollowUpResponse } from '@shared/contracts/follow-ups';
import {
  fillTemplate,
  hasOptOutWording,
  OPT_OUT_MISSING,
  unknownPlaceholders,
} from '@shared/contracts/follow-ups';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { SettingSwitch } from '@web/features/delivery/components/setting-switch';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { cn } from '@web/lib/utils';
import { CircleAlert, MessageSquare } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useSaveFollowUp } from '../api';

/** The sample lead of the live preview. */
const SAMPLE_LEAD = { firstName: 'Maria', lastName: 'Lopez' };

function TemplateArea({
  label,
  value,
  onChange,
  error,
  rows,
  name,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  rows: number;
  name: string;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={cn(
          'w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none md:text-sm',
          'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring',
          'aria-invalid:border-destructive',
        )}
      />
      {error && (
        <p id={`${id}-error`} className="text-destructive text-xs">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The follow-up templates (docs/domain.md, Follow-up messages and calls): SMS and email with {firstName}, {agentName} and
 * {agentPhone}, a live preview on a sample lead, and the switch, disabled with the reason when the
 * package lacks the service or no provider is configured.
 */
export function FollowUpCard({
  settings,
  agentName,
  agentPhone,
}: {
  settings: FollowUpResponse;
  agentName: string;
  agentPhone: string | null;
}) {
  const [enabled, setEnabled] = useState(settings.enabled);
  const [sms, setSms] = useState(settings.sms);
  const [subject, setSubject] = useState(settings.email.subject);
  const [body, setBody] = useState(settings.email.body);
  const save = useSaveFollowUp();
  const { available, reason } = settings.availability;
  const issues = fieldIssues(save.error);
  const local = (text: string) => {
    const unknown = unknownPlaceholders(text);
    return unknown.length > 0 ? `Unknown placeholder {${unknown[0]}}` : undefined;
  };
  const errors = {
    sms:
      local(sms) ??
      (sms.trim() !== '' && !hasOptOutWording(sms) ? OPT_OUT_MISSING : undefined) ??
      issues.find((i) => i.field === 'sms')?.message,
    subject: local(subject) ?? issues.find((i) => i.field === 'email.subject')?.message,
    body: local(body) ?? issues.find((i) => i.field === 'email.body')?.message,
  };
  const values = {
    ...SAMPLE_LEAD,
    agentName,
    agentPhone: agentPhone ? formatPhone(agentPhone) : '(your phone)',
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      { enabled: enabled && available, sms, email: { subject, body } },
      {
        onSuccess: (saved) => {
          setEnabled(saved.enabled);
          toast({ title: 'Follow-up messages saved' });
        },
        onError: (error) => {
          if (fieldIssues(error).length === 0)
            toast({
              variant: 'destructive',
              title: 'Not saved',
              description: errorMessage(error, 'The templates could not be saved'),
            });
        },
      },
    );
  }

  return (
    <Card data-testid="follow-up-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <MessageSquare className="size-5" aria-hidden="true" />
            Follow-up Messages
          </h2>
        </CardTitle>
        <CardDescription>
          Sent to each new lead when it is assigned to you, only with the lead's consent and inside
          its calling window; a lead who replies STOP gets nothing more.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="space-y-6">
          {!available && (
            <p
              role="status"
              data-testid="follow-up-unavailable"
              className="flex gap-2 rounded-lg border border-amber-500/50 bg-amber-50 p-3 text-amber-900 text-sm dark:bg-amber-950/40 dark:text-amber-200"
            >
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {reason}
            </p>
          )}
          <SettingSwitch
            label="Send follow-up messages"
            description={available ? 'To every lead you are given from now on.' : reason}
            checked={enabled && available}
            onCheckedChange={setEnabled}
            disabled={!available}
            testId="follow-up-enabled"
          />
          <p className="text-muted-foreground text-sm">
            Placeholders: <code>{'{firstName}'}</code> and <code>{'{lastName}'}</code> (the lead's
            names), <code>{'{agentName}'}</code>, <code>{'{agentPhone}'}</code>. An SMS must say how
            to stop them ("Reply STOP to opt out.").
          </p>
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="space-y-4">
              <TemplateArea
                label="SMS"
                name="sms"
                rows={4}
                value={sms}
                onChange={setSms}
                error={errors.sms}
              />
              <FormField
                label="Email subject"
                name="emailSubject"
                value={subject}
                onChange={(e) => setSubject(e.target.value)}
                error={errors.subject}
              />
              <TemplateArea
                label="Email body"
                name="emailBody"
                rows={6}
                value={body}
                onChange={setBody}
                error={errors.body}
              />
            </div>
            <section
              aria-labelledby="follow-up-preview-title"
              className="space-y-3 rounded-lg border bg-muted/40 p-4 text-sm"
              data-testid="follow-up-preview"
            >
              <h3 id="follow-up-preview-title" className="font-medium">
                Preview for a sample lead, {SAMPLE_LEAD.firstName}
              </h3>
              <div className="space-y-1">
                <p className="text-muted-foreground text-xs uppercase">SMS</p>
                <p
                  className="whitespace-pre-wrap rounded-md bg-background p-3 shadow-xs wrap-anywhere"
                  data-testid="preview-sms"
                >
                  {sms.trim() ? fillTemplate(sms, values) : 'No SMS'}
                </p>
              </div>
              <div className="space-y-1">
                <p className="text-muted-foreground text-xs uppercase">Email</p>
                <div className="rounded-md bg-background p-3 shadow-xs wrap-anywhere">
                  <p className="font-medium" data-testid="preview-subject">
                    {fillTemplate(subject, values) || '(no subject)'}
                  </p>
                  <p className="mt-2 whitespace-pre-wrap" data-testid="preview-body">
                    {body.trim() ? fillTemplate(body, values) : 'No email'}
                  </p>
                </div>
              </div>
            </section>
          </div>
          <Button
            type="submit"
            disabled={save.isPending || Boolean(errors.sms || errors.subject || errors.body)}
          >
            {save.isPending && <Spinner />}
            Save Follow-up Messages
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
