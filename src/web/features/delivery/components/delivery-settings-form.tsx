import type { DeliverySettings } from '@shared/contracts/delivery';
import { formatBusinessTime } from '@shared/format';
import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { useWhenIdle } from '@web/hooks/use-when-idle';
import { ApiError, errorMessage, fieldIssues } from '@web/lib/api-client';
import { CircleAlert, Mail, Webhook } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { useSaveDeliverySettings } from '../api';
import {
  deliveryFormResolver,
  formValuesOf,
  type ServerField,
  serverFieldOf,
  toBody,
} from '../delivery-form';
import { SettingSwitch } from './setting-switch';
import { SigningSecret } from './signing-secret';
import { WebhookTest } from './webhook-test';

function Section({
  icon,
  title,
  description,
  children,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            {icon}
            {title}
          </h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">{children}</CardContent>
    </Card>
  );
}

/** Switched off after failures in a row: why, since when, and how it comes back. */
function DisabledNotice({ disabledAt, failures }: { disabledAt: string; failures: number }) {
  const timeZone = useBusinessTimeZone();
  return (
    <div
      role="status"
      data-testid="webhook-disabled-notice"
      className="flex gap-3 rounded-lg border border-amber-500/50 bg-amber-50 p-4 text-amber-900 text-sm dark:bg-amber-950/40 dark:text-amber-200"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <p className="font-medium">Your endpoint was switched off</p>
        <p>
          After {failures > 0 ? `${failures} failed deliveries` : 'repeated failed deliveries'} in a
          row, LeadFlow stopped sending to it on{' '}
          <time dateTime={disabledAt}>{formatBusinessTime(disabledAt, timeZone)}</time>. Fix the
          endpoint, then save with Enable on to turn it back on.
        </p>
      </div>
    </div>
  );
}

/** CRM integration comes with some packages only. */
function WebhookUnavailable() {
  return (
    <p className="text-muted-foreground text-sm" data-testid="webhook-unavailable">
      CRM integration comes with a package that includes it.{' '}
      <Link
        href={paths.agent.package}
        className="rounded-sm font-medium text-primary underline underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
      >
        See the packages
      </Link>
    </p>
  );
}

/**
 * Email and the CRM webhook, saved together. What the server refuses goes under its field (the
 * first of them focused) and into a toast.
 */
export function DeliverySettingsForm({ settings }: { settings: DeliverySettings }) {
  const {
    control,
    formState: { errors, isDirty },
    handleSubmit,
    register,
    reset,
    setError,
    setFocus,
    setValue,
    watch,
  } = useForm({ resolver: deliveryFormResolver, defaultValues: formValuesOf(settings) });
  const save = useSaveDeliverySettings();
  const busy = save.isPending;
  const whenIdle = useWhenIdle(busy);
  const { email, webhook } = settings;
  // settings read again in the background (on a later visit) show, unless the agent is editing
  useEffect(() => {
    if (!isDirty) reset(formValuesOf(settings));
  }, [settings, isDirty, reset]);
  const removeAuthHeader = watch('removeAuthHeader');
  const urlChanged = (watch('webhook.url') ?? '').trim() !== (webhook.url ?? '');

  const submit = handleSubmit((values) =>
    save.mutate(toBody(values, webhook.available), {
      onSuccess: (stored) => {
        reset(formValuesOf(stored));
        toast({ title: 'Delivery settings saved' });
      },
      onError: (error) => {
        const refused = new Map<ServerField, string>();
        for (const issue of fieldIssues(error)) {
          const field = serverFieldOf(issue.field);
          if (field && !refused.has(field)) refused.set(field, issue.message);
        }
        // a refused endpoint (not http(s), an internal address, none to enable) comes as a
        // 400 with a message only: it is the URL's, so it shows there
        if (
          refused.size === 0 &&
          webhook.available &&
          error instanceof ApiError &&
          error.status === 400
        ) {
          refused.set('webhook.url', errorMessage(error, 'The endpoint was refused'));
        }
        for (const [field, message] of refused) setError(field, { type: 'server', message });
        const [first] = refused.keys();
        if (first) whenIdle(() => setFocus(first));
        toast({
          variant: 'destructive',
          title: 'Save failed',
          description: errorMessage(error, 'Failed to save delivery settings'),
        });
      },
    }),
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-busy={busy}>
      <Section
        icon={<Mail className="size-5" aria-hidden="true" />}
        title="Email"
        description="An email for each lead assigned to you, with the lead's name, phone and a link to it."
        testId="delivery-email"
      >
        <Controller
          control={control}
          name="email.enabled"
          render={({ field }) => (
            <SettingSwitch
              label="Email me each new lead"
              description={
                email.configured ? (
                  <>
                    Sent to <span className="font-medium text-foreground">{email.address}</span>
                  </>
                ) : (
                  'Email delivery is not configured on this portal.'
                )
              }
              checked={email.configured && field.value}
              onCheckedChange={field.onChange}
              disabled={busy || !email.configured}
              switchRef={field.ref}
              testId="email-switch"
            />
          )}
        />
      </Section>

      <Section
        icon={<Webhook className="size-5" aria-hidden="true" />}
        title="CRM Webhook"
        description="Each new lead is sent as a signed JSON POST to your CRM's endpoint."
        testId="delivery-webhook"
      >
        {!webhook.available ? (
          <WebhookUnavailable />
        ) : (
          <>
            {webhook.disabledAt && (
              <DisabledNotice disabledAt={webhook.disabledAt} failures={webhook.failuresInRow} />
            )}
            <fieldset className="grid gap-4" disabled={busy}>
              <legend className="sr-only">Endpoint</legend>
              <FormField
                label="Endpoint URL"
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://crm.example.com/hooks/leadflow"
                error={errors.webhook?.url?.message}
                {...register('webhook.url')}
              />
              <FormField
                label="Authorization header (optional)"
                autoComplete="off"
                spellCheck={false}
                placeholder={
                  webhook.authHeaderSet && !removeAuthHeader
                    ? 'Type a new value to replace it'
                    : 'Bearer your-crm-token'
                }
                hint={
                  webhook.authHeaderSet ? (
                    <AuthHeaderState
                      removing={removeAuthHeader}
                      onToggle={() =>
                        setValue('removeAuthHeader', !removeAuthHeader, { shouldDirty: true })
                      }
                    />
                  ) : (
                    'Sent as the Authorization header of each request. It is never shown again.'
                  )
                }
                error={errors.webhook?.authHeader?.message}
                disabled={busy || removeAuthHeader}
                {...register('webhook.authHeader')}
              />
              <Controller
                control={control}
                name="webhook.enabled"
                render={({ field }) => (
                  <SettingSwitch
                    label="Enable"
                    description={
                      errors.webhook?.enabled?.message ? (
                        <span className="text-destructive">{errors.webhook.enabled.message}</span>
                      ) : (
                        'Send each new lead to this endpoint.'
                      )
                    }
                    checked={field.value}
                    onCheckedChange={field.onChange}
                    disabled={busy}
                    switchRef={field.ref}
                    testId="webhook-switch"
                  />
                )}
              />
            </fieldset>
            <SigningSecret
              secret={webhook.secret}
              previousSecretUntil={webhook.previousSecretUntil}
            />
            <WebhookTest savedUrl={webhook.url} unsaved={urlChanged} />
          </>
        )}
      </Section>

      {/* nothing to save when neither channel is open to this agent */}
      {(email.configured || webhook.available) && (
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy && <Spinner />}
            Save Settings
          </Button>
        </div>
      )}
      {isDirty && <span className="sr-only">You have unsaved changes.</span>}
    </form>
  );
}

/** "Set", with Remove (or, once removing, Keep it) beside the header field. */
function AuthHeaderState({ removing, onToggle }: { removing: boolean; onToggle: () => void }) {
  return (
    <span className="flex flex-wrap items-center gap-2" data-testid="auth-header-state">
      {removing ? 'Will be removed when you save.' : 'A header is set.'}
      <Button
        type="button"
        variant="link"
        size="sm"
        className="h-auto p-0 text-xs"
        onClick={onToggle}
        aria-label={removing ? 'Keep the Authorization header' : 'Remove the Authorization header'}
      >
        {removing ? 'Keep it' : 'Remove'}
      </Button>
    </span>
  );
}
