import { Label } from '@web/components/ui/label';
import { Switch } from '@web/components/ui/switch';
import { type ReactNode, useId } from 'react';

/** A labelled switch with what it does under the label; the whole row reads as one setting. */
export function SettingSwitch({
  label,
  description,
  checked,
  onCheckedChange,
  disabled,
  switchRef,
  testId,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  switchRef?: (element: HTMLButtonElement | null) => void;
  testId?: string;
}) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0 space-y-1">
        <Label htmlFor={id}>{label}</Label>
        {description && (
          <div id={descriptionId} className="text-muted-foreground text-sm wrap-anywhere">
            {description}
          </div>
        )}
      </div>
      <Switch
        id={id}
        ref={switchRef}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-describedby={description ? descriptionId : undefined}
        data-testid={testId}
      />
    </div>
  );
}
