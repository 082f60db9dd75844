import { MISFIT_LABELS, type MisfitReason } from '@shared/contracts/explanation';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { X } from 'lucide-react';
import { unfitReasonsQuery } from '../api';

/**
 * NEW leads that fit no agent, counted by the furthest reason any agent got to (docs/domain.md, Analytics that explain); each
 * count filters the list to those leads. Nothing is shown while every NEW lead fits someone.
 */
export function UnfitReasonsBar({
  selected,
  onSelect,
}: {
  selected: MisfitReason | null;
  onSelect: (reason: MisfitReason | null) => void;
}) {
  const { data } = useQuery(unfitReasonsQuery);
  if (!data || (data.reasons.length === 0 && selected === null)) return null;
  const unfit = data.newLeads - data.fitting;
  return (
    <section
      aria-labelledby="unfit-title"
      className="space-y-2 rounded-lg border p-3"
      data-testid="unfit-reasons"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="unfit-title" className="font-medium text-sm">
          {unfit.toLocaleString('en-US')} NEW {unfit === 1 ? 'lead fits' : 'leads fit'} no agent
          <span className="font-normal text-muted-foreground">
            {' '}
            (of {data.newLeads.toLocaleString('en-US')} NEW), by reason
          </span>
        </h2>
        {selected && (
          <Button size="sm" variant="ghost" onClick={() => onSelect(null)}>
            <X aria-hidden="true" />
            Show all leads
          </Button>
        )}
      </div>
      <ul className="flex flex-wrap gap-2">
        {data.reasons.map((r) => (
          <li key={r.reason}>
            <Button
              size="sm"
              variant={selected === r.reason ? 'default' : 'outline'}
              aria-pressed={selected === r.reason}
              data-reason={r.reason}
              onClick={() => onSelect(selected === r.reason ? null : r.reason)}
            >
              {MISFIT_LABELS[r.reason]}
              <span className="font-semibold">{r.count.toLocaleString('en-US')}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
