import type { preferencesResponse } from '@shared/contracts/agent';
import { US_STATES } from '@shared/domain';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import type { z } from 'zod';
import { agentPreferencesQuery } from '../../agent/api';

type PreferencesAnswer = z.infer<typeof preferencesResponse>;

const stateName = (code: string) => US_STATES[code as keyof typeof US_STATES] ?? code;

/**
 * docs/domain.md, Licensed states: the admin recorded the states the agent is licensed in; preferred states outside
 * them get no leads. Says so above the form, from the preferences' own answer.
 */
export function LicenceWarning() {
  const { data } = useQuery(agentPreferencesQuery);
  const answer = data as PreferencesAnswer | undefined;
  const licensed = answer?.licensedStates ?? [];
  if (licensed.length === 0) return null;
  const outside = answer?.unlicensedStates ?? [];
  return (
    <div
      role={outside.length > 0 ? 'alert' : 'status'}
      data-testid="licence-warning"
      className={
        outside.length > 0
          ? 'flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:bg-amber-950/30'
          : 'flex gap-3 rounded-lg border p-4 text-sm'
      }
    >
      <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
      <div className="space-y-1">
        <p className="font-medium">
          You are licensed in{' '}
          {licensed.length === 1 ? stateName(licensed[0]) : `${licensed.length} states`}:{' '}
          {licensed.join(', ')}.
        </p>
        {outside.length > 0 ? (
          <p>
            You will get no leads from{' '}
            {outside.map((code) => `${stateName(code)} (${code})`).join(', ')}: you are not licensed
            there. Ask your admin if this is wrong.
          </p>
        ) : (
          <p className="text-muted-foreground">
            You only get leads of these states, whatever your preferences say.
          </p>
        )}
      </div>
    </div>
  );
}
