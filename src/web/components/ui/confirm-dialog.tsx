import type { ReactNode } from 'react';
import { Button } from './button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from './dialog';
import { Spinner } from './spinner';

/**
 * A question before an action that costs something or stops something (subscribing, switching,
 * cancelling): the question as the title, what follows in the description, the action on the
 * confirm button and a way back. The dialog stays open, its buttons busy, until the action ends;
 * the caller closes it on success.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  pending,
  destructive = false,
  testId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the button that opens it, when there is one (otherwise the caller opens it from state) */
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  pending: boolean;
  destructive?: boolean;
  testId?: string;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // a click outside or Escape while the action runs would hide its outcome
        if (!pending || next) onOpenChange(next);
      }}
    >
      {trigger && <DialogTrigger asChild>{trigger}</DialogTrigger>}
      <DialogContent data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              {cancelLabel}
            </Button>
          </DialogClose>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            onClick={onConfirm}
            disabled={pending}
          >
            {pending && <Spinner />}
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
