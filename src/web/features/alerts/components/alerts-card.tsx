import type { AlertSettings } from '@shared/contracts/alerts';
import { formatPhone } from '@shared/phone';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { toast } from '@web/components/ui/use-toast';
import { SettingSwitch } from '@web/features/delivery/components/setting-switch';
import { errorMessage, fieldIssues } from '@web/lib/api-client';
import { BellDot } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { alertSettingsQuery, useSaveAlertSettings, useSendTestAlert } from '../api';

/** Quiet hours offered when the agent first turns them on. */
const SUGGESTED_QUIET = { start: '21:00', end: '08:00' };

/**
 * "Alerts of new leads" (docs/domain.md, Alerts to the agent's phone): push to the agent's devices
 * and SMS to their verified phone, each on or off with a test, and quiet hours in their zone.
 * `phoneKey` changes when the phone or its verification does (the phone card): read again then.
 */
export function AlertsCard({ phoneKey }: { phoneKey: string }) {
  const settings = useQuery(alertSettingsQuery);
  const { refetch } = settings;
  const seenPhone = useRef(phoneKey);
  useEffect(() => {
    if (seenPhone.current === phoneKey) return;
    seenPhone.current = phoneKey;
    refetch();
  }, [phoneKey, refetch]);
  return (
    <Card data-testid="alerts-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <BellDot className="size-5" aria-hidden="true" />
            Alerts of new leads
          </h2>
        </CardTitle>
        <CardDescription>
          How LeadFlow tells you about each lead given to you, and when it keeps quiet. The leads
          are in My Leads either way.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isError ? (
          <LoadError
            message="Your alerts could not be loaded."
            onRetry={() => settings.refetch()}
            retrying={settings.isFetching}
          />
        ) : settings.data ? (
          <AlertsForm key={JSON.stringify(settings.data)} saved={settings.data} />
        ) : (
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-2/3" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function AlertsForm({ saved }: { saved: AlertSettings }) {
  const [push, setPush] = useState(saved.push);
  const [sms, setSms] = useState(saved.sms);
  const [quietOn, setQuietOn] = useState(saved.quietHours !== null);
  const [quiet, setQuiet] = useState(saved.quietHours ?? SUGGESTED_QUIET);
  const save = useSaveAlertSettings();
  const test = useSendTestAlert();
  const issues = fieldIssues(save.error);
  const issue = (field: string) => issues.find((i) => i.field === field)?.message;
  const smsAvailable = saved.smsAvailable.available;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      { push, sms: sms && smsAvailable, quietHours: quietOn ? quiet : null },
      {
        onSuccess: () => toast({ title: 'Alerts saved' }),
        onError: (error) => {
          if (fieldIssues(error).length === 0)
            toast({
              variant: 'destructive',
              title: 'Not saved',
              description: errorMessage(error, 'Your alerts could not be saved'),
            });
        },
      },
    );
  }

  function sendTest(channel: 'push' | 'sms') {
    test.mutate(channel, {
      onSuccess: (result) =>
        result.failed === 0
          ? toast({
              title: channel === 'push' ? 'Test push sent' : 'Test text sent',
              description:
                channel === 'push'
                  ? `To ${result.sent} ${result.sent === 1 ? 'device' : 'devices'}.`
                  : `To ${saved.phone ? formatPhone(saved.phone) : 'your phone'}.`,
            })
          : toast({
              variant: 'destructive',
              title: 'The test did not go through',
              description: result.error ?? undefined,
            }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'No test sent',
          description: errorMessage(error, 'The test could not be sent'),
        }),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-6" aria-label="Alerts of new leads">
      <div className="space-y-3">
        <SettingSwitch
          label="Push notifications"
          description="To every device where push notifications are on."
          checked={push}
          onCheckedChange={setPush}
          testId="alerts-push"
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => sendTest('push')}
          disabled={test.isPending}
        >
          Send a test push
        </Button>
      </div>
      <div className="space-y-3">
        <SettingSwitch
          label="Text messages (SMS)"
          description={
            smsAvailable && saved.phone ? (
              `To ${formatPhone(saved.phone)}: the lead's first name, city and a link to it.`
            ) : (
              <span data-testid="alerts-sms-unavailable">{saved.smsAvailable.reason}</span>
            )
          }
          checked={sms && smsAvailable}
          onCheckedChange={setSms}
          disabled={!smsAvailable}
          testId="alerts-sms"
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => sendTest('sms')}
          disabled={!smsAvailable || test.isPending}
        >
          Send a test text
        </Button>
      </div>
      <div className="space-y-3">
        <SettingSwitch
          label="Quiet hours"
          description={`No push or text between these times, in your time zone (${saved.timeZone}). A window may cross midnight.`}
          checked={quietOn}
          onCheckedChange={setQuietOn}
          testId="alerts-quiet"
        />
        {quietOn && (
          <div className="grid max-w-sm grid-cols-2 gap-4">
            <FormField
              label="From"
              name="quietStart"
              type="time"
              required
              value={quiet.start}
              onChange={(e) => setQuiet({ ...quiet, start: e.target.value })}
              error={issue('quietHours.start')}
            />
            <FormField
              label="To"
              name="quietEnd"
              type="time"
              required
              value={quiet.end}
              onChange={(e) => setQuiet({ ...quiet, end: e.target.value })}
              error={issue('quietHours.end')}
            />
          </div>
        )}
      </div>
      <Button type="submit" disabled={save.isPending}>
        Save alerts
      </Button>
    </form>
  );
}
