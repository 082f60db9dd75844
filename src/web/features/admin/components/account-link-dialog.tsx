import { Button } from '@web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { toast } from '@web/components/ui/use-toast';

/** Shows a link to hand over (a password reset, an invite), with a Copy button. */
export function AccountLinkDialog({
  url,
  title,
  description,
  onClose,
}: {
  url: string | null;
  title: string;
  description: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={url !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Input
          readOnly
          value={url ?? ''}
          aria-label={title}
          data-testid="account-link"
          onFocus={(event) => event.target.select()}
        />
        <DialogFooter>
          <Button
            onClick={() =>
              navigator.clipboard
                ?.writeText(url ?? '')
                .then(() => toast({ title: 'Link copied' }))
                .catch(() => toast({ title: 'Select the link and copy it' }))
            }
          >
            Copy link
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
