import { useQuery } from '@tanstack/react-query';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@web/components/ui/select';
import { useEffect } from 'react';
import { sourcesQuery } from '../api';

const NONE = 'none';

/** The source a CSV file comes from (optional): the active sources, or none. */
export function ImportSourceSelect({
  value,
  onChange,
  disabled,
}: {
  value: number | null;
  onChange: (sourceId: number | null) => void;
  disabled?: boolean;
}) {
  const sources = useQuery(sourcesQuery);
  const active = (sources.data ?? []).filter((s) => s.active);
  // a source deactivated (or gone from the list) meanwhile is no longer offered, nor sent
  const offered = value !== null && active.some((s) => s.id === value);
  const stale = sources.data !== undefined && value !== null && !offered;
  useEffect(() => {
    if (stale) onChange(null);
  }, [stale, onChange]);
  const current = offered ? String(value) : NONE;
  return (
    <Select
      value={current}
      onValueChange={(v) => onChange(v === NONE ? null : Number(v))}
      disabled={disabled}
    >
      <SelectTrigger className="w-48" aria-label="Source of the imported file">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NONE}>No source</SelectItem>
        {active.map((source) => (
          <SelectItem key={source.id} value={String(source.id)}>
            {source.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
