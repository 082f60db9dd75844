import type { AgentServices } from '@shared/contracts/calls';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { CircleAlert, CircleCheck, PhoneCall } from 'lucide-react';

/** Call Recording's state: ready, or why not (not configured, not in the package, no phone). */
export function CallsCard({ services }: { services: AgentServices }) {
  const { available, reason } = services.calls;
  const Icon = available ? CircleCheck : CircleAlert;
  return (
    <Card data-testid="calls-card">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="flex items-center gap-2 text-lg">
            <PhoneCall className="size-5" aria-hidden="true" />
            Call Recording
          </h2>
        </CardTitle>
        <CardDescription>
          The Call button on My Leads rings your phone, says "This call is recorded." and connects
          you to the lead. Recordings play in the lead's drawer.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <p
          className={
            available
              ? 'flex items-center gap-2 text-green-700 text-sm dark:text-green-400'
              : 'flex items-center gap-2 text-muted-foreground text-sm'
          }
          data-testid="calls-state"
        >
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          {available ? 'Ready: call leads from My Leads' : reason}
        </p>
      </CardContent>
    </Card>
  );
}
