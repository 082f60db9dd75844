import { formatBusinessTime } from '@shared/format';
import { Button } from '@web/components/ui/button';
import { toast } from '@web/components/ui/use-toast';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { Copy, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { maskSecret } from '../delivery-form';
import { RotateSecretButton } from './rotate-secret-button';

/**
 * The Standard Webhooks signing secret: masked until asked for, copied in one click, rotated after
 * a confirmation (while the old one still signs, until when).
 */
export function SigningSecret({
  secret,
  previousSecretUntil,
}: {
  secret: string;
  previousSecretUntil: string | null;
}) {
  const timeZone = useBusinessTimeZone();
  const [shown, setShown] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast({ title: 'Secret copied', description: 'Paste it into your CRM to check signatures.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: 'Select the secret after Show and copy it yourself.',
      });
    }
  }

  return (
    <div className="grid gap-2">
      <p className="font-medium text-sm">Signing secret</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="signing-secret"
          className="min-h-9 min-w-0 flex-1 select-all rounded-md border bg-muted/50 px-3 py-2 font-mono text-xs wrap-anywhere"
        >
          {shown ? (
            secret
          ) : (
            <>
              <span aria-hidden="true">{maskSecret(secret)}</span>
              <span className="sr-only">Hidden</span>
            </>
          )}
        </code>
        <div className="flex gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-pressed={shown}
            onClick={() => setShown((value) => !value)}
          >
            {shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {shown ? 'Hide' : 'Show'}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={copy}>
            <Copy aria-hidden="true" />
            Copy
          </Button>
          <RotateSecretButton />
        </div>
      </div>
      {previousSecretUntil && (
        <p className="text-sm" data-testid="previous-secret-until">
          Requests are also signed with the previous secret until{' '}
          <time dateTime={previousSecretUntil}>
            {formatBusinessTime(previousSecretUntil, timeZone)}
          </time>
          .
        </p>
      )}
      <p className="text-muted-foreground text-xs">
        Each request is signed with it (Standard Webhooks: webhook-id, webhook-timestamp,
        webhook-signature), so your CRM can check it came from LeadFlow.
      </p>
    </div>
  );
}
