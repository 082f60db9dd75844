import type { Lead } from '@shared/contracts/leads';
import { categoryLabel, formatBusinessTime, leadName, leadPlace } from '@shared/format';
import { formatPhone } from '@shared/phone';
import { Button } from '@web/components/ui/button';
import {
  Drawer,
  DrawerClose,
  DrawerContent,
  DrawerDescription,
  DrawerFooter,
  DrawerHeader,
  DrawerTitle,
} from '@web/components/ui/drawer';
import { useBusinessTimeZone } from '@web/features/admin/api';
import { useState } from 'react';
import { WhyThisAgent } from '../../explanation/components/why-this-agent';
import { LeadConsent } from './lead-consent';
import { LeadStatusBadge } from './lead-status-badge';

/** The admin's drawer on one lead: its details, its consent, and why it went where it went. */
export function AdminLeadDrawer({ lead, onClose }: { lead: Lead | null; onClose: () => void }) {
  // the last lead stays rendered while the drawer slides out
  const [shown, setShown] = useState(lead);
  if (lead && lead !== shown) setShown(lead);
  return (
    <Drawer
      open={lead !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DrawerContent data-testid="admin-lead-drawer">
        <div className="mx-auto w-full max-w-2xl overflow-y-auto">
          {shown && <Details key={shown.id} lead={shown} />}
        </div>
      </DrawerContent>
    </Drawer>
  );
}

function Details({ lead }: { lead: Lead }) {
  const timeZone = useBusinessTimeZone();
  const details: [string, string][] = [
    ['Name', leadName(lead)],
    ['Phone', lead.phone ? formatPhone(lead.phone) : '—'],
    ['Email', lead.email ?? '—'],
    ['Location', `${leadPlace(lead)}${lead.zip ? ` ${lead.zip}` : ''}`],
    ['Age', String(lead.age)],
    ['Category', categoryLabel(lead.category)],
    ['Received', formatBusinessTime(lead.createdAt, timeZone)],
  ];
  return (
    <>
      <DrawerHeader>
        <DrawerTitle>{leadName(lead)}</DrawerTitle>
        <DrawerDescription>
          Lead #{lead.id}: details, consent and why it went where it went.
        </DrawerDescription>
      </DrawerHeader>
      <div className="grid gap-4 px-4 md:grid-cols-2">
        <div className="space-y-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border p-4 text-sm">
            {details.map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="text-muted-foreground">{term}</dt>
                <dd className="min-w-0 break-words font-medium">{value}</dd>
              </div>
            ))}
            <dt className="text-muted-foreground">Status</dt>
            <dd>
              <LeadStatusBadge status={lead.status} />
            </dd>
          </dl>
          <LeadConsent lead={lead} />
        </div>
        <WhyThisAgent leadId={lead.id} />
      </div>
      <DrawerFooter>
        <DrawerClose asChild>
          <Button type="button" variant="outline">
            Close
          </Button>
        </DrawerClose>
      </DrawerFooter>
    </>
  );
}
