import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-client';
import { BellRing } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  pushDevicesQuery,
  pushPublicKeyQuery,
  useRemovePushDevice,
  useSavePushDevice,
} from '../api';
import {
  currentSubscription,
  PushPermissionRefused,
  pushSupported,
  subscribeThisDevice,
} from '../push-device';

/**
 * "Push notifications on this device" (docs/domain.md, Alerts to the agent's phone): on when this
 * browser's subscription is one of the agent's devices. Turning it on asks the browser's
 * permission (on the click, never on load); turning it off unsubscribes and removes the device.
 */
export function PushCard() {
  const supported = pushSupported();
  const devices = useQuery({ ...pushDevicesQuery, enabled: supported });
  const publicKey = useQuery({ ...pushPublicKeyQuery, enabled: supported });
  const save = useSavePushDevice();
  const remove = useRemovePushDevice();
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!supported) return;
    currentSubscription()
      .then((s) => setEndpoint(s?.endpoint ?? null))
      .catch(() => setEndpoint(null));
  }, [supported]);

  const on =
    endpoint !== null && (devices.data?.devices ?? []).some((d) => d.endpoint === endpoint);
  const denied = supported && Notification.permission === 'denied';

  async function turnOn() {
    if (!publicKey.data) return;
    setBusy(true);
    setError(null);
    try {
      const { body } = await subscribeThisDevice(publicKey.data.publicKey);
      await save.mutateAsync(body);
      setEndpoint(body.endpoint);
    } catch (err) {
      setError(
        err instanceof PushPermissionRefused
          ? err.message
          : errorMessage(err, 'Push notifications could not be turned on.'),
      );
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    setError(null);
    try {
      const subscription = await currentSubscription();
      const target = subscription?.endpoint ?? endpoint;
      await subscription?.unsubscribe();
      if (target) await remove.mutateAsync(target);
      setEndpoint(null);
    } catch (err) {
      setError(errorMessage(err, 'Push notifications could not be turned off.'));
    } finally {
      setBusy(false);
    }
  }

  const state = !supported
    ? 'This browser cannot receive push notifications. On an iPhone, add LeadFlow to the Home Screen first.'
    : denied
      ? 'Notifications are blocked for LeadFlow in this browser: allow them in its site settings.'
      : on
        ? 'On: a new lead shows on this device as soon as it is yours.'
        : 'Off on this device.';

  return (
    <Card data-testid="push-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <BellRing className="size-5" aria-hidden="true" />
            Push notifications on this device
          </h2>
        </CardTitle>
        <CardDescription>
          Get an alert on this phone or computer for every new lead, with the lead's name and area;
          tapping it opens the lead.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm" data-testid="push-state" aria-live="polite">
          {state}
        </p>
        {supported && !denied ? (
          on ? (
            <Button variant="outline" onClick={turnOff} disabled={busy}>
              Turn off on this device
            </Button>
          ) : (
            <Button onClick={turnOn} disabled={busy || !publicKey.data || devices.isLoading}>
              Turn on push notifications
            </Button>
          )
        ) : null}
        {error ? (
          <p className="text-destructive text-sm" role="alert">
            {error}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
