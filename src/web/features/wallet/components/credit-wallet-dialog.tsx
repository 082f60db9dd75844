import { formatPriceExact } from '@shared/format';
import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { FormField } from '@web/components/ui/form-field';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage, formFieldErrors } from '@web/lib/api-client';
import { useState } from 'react';
import { useCreditWallet } from '../api';
import { creditRequest } from '../wallet-form';

type Errors = Partial<Record<'amount' | 'note', string>>;

/** "Credit wallet" for one agent: an amount and the note the agent sees beside it. */
export function CreditWalletDialog({
  agent,
  onClose,
}: {
  agent: { id: number; name: string } | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={agent !== null}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <DialogContent data-testid="credit-wallet-dialog">
        {agent && <CreditForm key={agent.id} agent={agent} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function CreditForm({
  agent,
  onDone,
}: {
  agent: { id: number; name: string };
  onDone: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const credit = useCreditWallet();
  const busy = credit.isPending;

  const submit = () => {
    const result = creditRequest(amount, note);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    credit.mutate(
      { agentId: agent.id, body: result.body },
      {
        onSuccess: ({ balanceCents }) => {
          toast({
            title: 'Wallet credited',
            description: `${agent.name}'s balance is now ${formatPriceExact(balanceCents)}.`,
          });
          onDone();
        },
        onError: (error) => {
          setErrors(formFieldErrors(error, ['amount', 'note'] as const, { amountCents: 'amount' }));
          toast({
            variant: 'destructive',
            title: 'Credit failed',
            description: errorMessage(error, 'The wallet could not be credited'),
          });
        },
      },
    );
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <DialogHeader>
        <DialogTitle>Credit {agent.name}'s wallet</DialogTitle>
        <DialogDescription>
          The amount is added to the balance at once; the agent sees it with your note.
        </DialogDescription>
      </DialogHeader>
      <FormField
        label="Amount ($)"
        inputMode="decimal"
        placeholder="50.00"
        className="max-w-40"
        value={amount}
        error={errors.amount}
        disabled={busy}
        onChange={(event) => {
          setAmount(event.target.value);
          setErrors({ ...errors, amount: undefined });
        }}
      />
      <FormField
        label="Note"
        placeholder="Goodwill credit"
        maxLength={200}
        value={note}
        error={errors.note}
        disabled={busy}
        onChange={(event) => {
          setNote(event.target.value);
          setErrors({ ...errors, note: undefined });
        }}
      />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Spinner />}
          Credit Wallet
        </Button>
      </DialogFooter>
    </form>
  );
}
