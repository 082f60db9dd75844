import { type LeadExplanation, MISFIT_LABELS } from '@shared/contracts/explanation';
import { formatBusinessTime } from '@shared/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@web/components/ui/badge';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { leadExplanationQuery } from '../api';

const TRIGGER_LABELS: Record<string, string> = {
  SCHEDULE: 'the daily schedule',
  MANUAL: '"Run assignment now"',
  IMPORT: 'the end of an import',
  RETURN: 'a return',
  AGENCY: 'leads an agency took back from a departing member',
};

function AssignedBy({
  a,
  timeZone,
}: {
  a: NonNullable<LeadExplanation['assignment']>;
  timeZone: string;
}) {
  const who = a.agent?.name ?? 'an agent';
  const when = formatBusinessTime(a.at, timeZone);
  if (a.kind === 'MANUAL')
    return (
      <p data-testid="why-assigned-by">
        Assigned to <strong>{who}</strong> by hand by {a.admin?.name ?? 'an admin'}, {when}.
      </p>
    );
  if (a.kind === 'RUN' && a.run)
    return (
      <p data-testid="why-assigned-by">
        Assigned to <strong>{who}</strong> by run #{a.run.id} (
        {TRIGGER_LABELS[a.run.trigger] ?? a.run.trigger}), {when}.
      </p>
    );
  return (
    <p data-testid="why-assigned-by">
      Assigned to <strong>{who}</strong> on arrival through the intake API, {when}.
    </p>
  );
}

/**
 * Why this agent (docs/domain.md, Analytics that explain): what assigned the lead, the agents it fits, and for every other
 * agent the first reason it does not, in the order the engine checks them.
 */
export function WhyThisAgent({ leadId }: { leadId: number }) {
  const explain = useQuery(leadExplanationQuery(leadId));
  const timeZone = useBusinessTimeZone();
  const data = explain.data;
  return (
    <section aria-labelledby="why-title" className="space-y-3 text-sm" data-testid="why-this-agent">
      <h3 id="why-title" className="font-medium text-sm">
        Why this agent
      </h3>
      {explain.isError ? (
        <LoadError
          message="The explanation could not be loaded."
          onRetry={() => explain.refetch()}
          retrying={explain.isFetching}
        />
      ) : !data ? (
        <div className="space-y-2" aria-busy="true">
          <Skeleton className="h-6 w-full" />
          <Skeleton className="h-6 w-2/3" />
        </div>
      ) : (
        <>
          {data.assignment ? (
            <AssignedBy a={data.assignment} timeZone={timeZone} />
          ) : data.lead.status === 'NEW' ? (
            <p>Not assigned yet.</p>
          ) : null}
          <div>
            <div className="text-muted-foreground">
              {data.lead.status === 'NEW'
                ? 'Fits now (agents with quota left today)'
                : 'Fits (by category, licence, state, city and age)'}
            </div>
            {data.fits.length === 0 ? (
              <p className="font-medium" data-testid="why-fits-none">
                No agent
              </p>
            ) : (
              <ul className="mt-1 flex flex-wrap gap-1" data-testid="why-fits">
                {data.fits.map((a) => (
                  <li key={a.id}>
                    <Badge variant="secondary">
                      {a.name} · {a.assignedToday}/{a.leadsPerDay} today
                    </Badge>
                  </li>
                ))}
              </ul>
            )}
          </div>
          {data.misfits.length > 0 && (
            <div>
              <div className="text-muted-foreground">The other agents, by their first reason</div>
              <ul className="mt-1 divide-y rounded-lg border" data-testid="why-misfits">
                {data.misfits.map((m) => (
                  <li key={m.reason} className="px-3 py-2" data-reason={m.reason}>
                    <div className="flex items-center justify-between gap-2">
                      <span className="font-medium">{MISFIT_LABELS[m.reason]}</span>
                      <span className="text-muted-foreground">{m.count}</span>
                    </div>
                    <div className="text-muted-foreground text-xs">
                      {m.agents.map((a) => a.name).join(', ')}
                      {m.count > m.agents.length ? ` and ${m.count - m.agents.length} more` : ''}
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
