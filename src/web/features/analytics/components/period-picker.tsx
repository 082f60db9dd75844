import { DEFAULT_BUSINESS_TIME_ZONE } from '@shared/format';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import type { Period } from '../api';

export const PERIOD_PRESETS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const;

function today(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/** The last `days` business days, today included. */
export function periodOfDays(days: number, timeZone = DEFAULT_BUSINESS_TIME_ZONE): Period {
  const to = today(timeZone);
  const d = new Date(`${to}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - (days - 1));
  return { from: d.toISOString().slice(0, 10), to };
}

export function PeriodPicker({
  days,
  onChange,
}: {
  days: number;
  onChange: (days: number) => void;
}) {
  return (
    <Select value={String(days)} onValueChange={(value) => onChange(Number(value))}>
      <SelectTrigger className="w-full sm:w-44" aria-label="Period">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {PERIOD_PRESETS.map((p) => (
          <SelectItem key={p.days} value={String(p.days)}>
            {p.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
