import { formatLeadPrice, formatPrice } from '@shared/format';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { CreditCard } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTopUp } from '../api';
import { TOP_UP_PRESETS, type TopUpChoice, topUpRequest } from '../wallet-form';

/**
 * Top up: a preset ($50, $100, $250) or a custom amount, paid on Stripe's Checkout page, which
 * sends the agent back here (with Stripe only: without it, only an admin adds funds).
 */
export function TopUpCard() {
  const [choice, setChoice] = useState<TopUpChoice>({ preset: TOP_UP_PRESETS[1] });
  const [error, setError] = useState<string | undefined>();
  const customRef = useRef<HTMLInputElement>(null);
  const topUp = useTopUp();
  // the page is left for Checkout: the button stays busy until it goes
  const busy = topUp.isPending || topUp.isSuccess;
  const custom = 'custom' in choice;
  const request = topUpRequest(choice);

  const submit = () => {
    if ('error' in request) {
      setError(request.error);
      customRef.current?.focus();
      return;
    }
    setError(undefined);
    topUp.mutate(request.amountCents, {
      onSuccess: ({ checkoutUrl }) => window.location.assign(checkoutUrl),
      onError: (e) => {
        setError(formFieldErrors(e, ['amountCents']).amountCents);
        toast({
          variant: 'destructive',
          title: 'Top-up failed',
          description: errorMessage(e, 'The payment page could not be opened'),
        });
      },
    });
  };

  return (
    <Card data-testid="top-up-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-base">Top up</h2>
        </CardTitle>
        <CardDescription>
          Add funds by card. You pay on Stripe’s secure page and come back here.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <fieldset className="grid gap-2">
            <legend className="mb-2 font-medium text-sm">Amount</legend>
            <div className="flex flex-wrap gap-2">
              {TOP_UP_PRESETS.map((cents) => {
                const chosen = !custom && choice.preset === cents;
                return (
                  <Button
                    key={cents}
                    type="button"
                    variant={chosen ? 'default' : 'outline'}
                    aria-pressed={chosen}
                    disabled={busy}
                    onClick={() => {
                      setChoice({ preset: cents });
                      setError(undefined);
                    }}
                  >
                    {formatPrice(cents)}
                  </Button>
                );
              })}
              <Button
                type="button"
                variant={custom ? 'default' : 'outline'}
                aria-pressed={custom}
                disabled={busy}
                onClick={() => {
                  if (!custom) setChoice({ custom: '' });
                }}
              >
                Custom
              </Button>
            </div>
          </fieldset>
          {custom && (
            <FormField
              ref={customRef}
              label="Custom amount ($)"
              inputMode="decimal"
              placeholder="75.00"
              autoFocus
              className="max-w-40"
              value={choice.custom}
              error={error}
              disabled={busy}
              onChange={(event) => {
                setChoice({ custom: event.target.value });
                setError(undefined);
              }}
            />
          )}
          {!custom && error && <p className="text-destructive text-xs">{error}</p>}
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? <Spinner /> : <CreditCard aria-hidden="true" />}
              {'amountCents' in request
                ? `Top up ${formatLeadPrice(request.amountCents)}`
                : 'Top up'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
