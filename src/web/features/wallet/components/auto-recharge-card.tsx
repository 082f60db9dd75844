import type { Wallet } from '@shared/contracts/wallet';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Label } from '@web/components/ui/label';
import { Spinner } from '@web/components/ui/spinner';
import { Switch } from '@web/components/ui/switch';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { useId, useState } from 'react';
import { useSaveAutoRecharge } from '../api';
import { type AutoRechargeForm, autoRechargeForm, autoRechargeRequest } from '../wallet-form';

type Errors = Partial<Record<'below' | 'amount', string>>;

/**
 * Auto-recharge: when the balance falls below an amount, the card saved at the first top-up is
 * charged another. Offered only with Stripe and a saved card; otherwise the card says why.
 */
export function AutoRechargeCard({ wallet }: { wallet: Wallet }) {
  const offered = wallet.canTopUp && wallet.cardSaved;
  return (
    <Card data-testid="auto-recharge-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-base">Auto-recharge</h2>
        </CardTitle>
        <CardDescription>
          {!wallet.canTopUp
            ? 'Not available: this portal takes no card payments, so an admin adds funds.'
            : !wallet.cardSaved
              ? 'Top up once by card first: auto-recharge charges the card you paid with.'
              : 'When your balance falls below an amount, the card of your last top-up is charged to add another.'}
        </CardDescription>
      </CardHeader>
      {offered && (
        <CardContent>
          <AutoRechargeSettings wallet={wallet} />
        </CardContent>
      )}
    </Card>
  );
}

function AutoRechargeSettings({ wallet }: { wallet: Wallet }) {
  const switchId = useId();
  const [form, setForm] = useState<AutoRechargeForm>(() => autoRechargeForm(wallet.autoRecharge));
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveAutoRecharge();
  const busy = save.isPending;
  const set = (change: Partial<AutoRechargeForm>) => {
    setForm({ ...form, ...change });
    setErrors({});
  };

  const submit = () => {
    const result = autoRechargeRequest(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    save.mutate(result.body, {
      onSuccess: (saved) =>
        toast({ title: saved.enabled ? 'Auto-recharge is on' : 'Auto-recharge is off' }),
      onError: (error) => {
        const refused = formFieldErrors(error, ['below', 'amount'] as const, {
          belowCents: 'below',
          amountCents: 'amount',
        });
        setErrors(refused);
        toast({
          variant: 'destructive',
          title: 'Could not save auto-recharge',
          description: errorMessage(error, 'Please try again'),
        });
      },
    });
  };

  return (
    <form
      noValidate
      aria-label="Auto-recharge"
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="flex items-center gap-3">
        <Switch
          id={switchId}
          checked={form.enabled}
          disabled={busy}
          onCheckedChange={(enabled) => set({ enabled })}
        />
        <Label htmlFor={switchId}>Recharge automatically</Label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Recharge below ($)"
          inputMode="decimal"
          placeholder="20.00"
          value={form.below}
          error={errors.below}
          disabled={busy || !form.enabled}
          onChange={(event) => set({ below: event.target.value })}
        />
        <FormField
          label="Recharge by ($)"
          inputMode="decimal"
          placeholder="100.00"
          value={form.amount}
          error={errors.amount}
          disabled={busy || !form.enabled}
          onChange={(event) => set({ amount: event.target.value })}
        />
      </div>
      <div>
        <Button type="submit" variant="outline" disabled={busy}>
          {busy && <Spinner />}
          Save auto-recharge
        </Button>
      </div>
    </form>
  );
}
