import type { AgencyMember, MyAgency } from '@shared/contracts/agency';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent } from '@web/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui/tabs';
import { AgencyAudit } from '@web/features/audit/components/agency-audit';
import { useCurrentUser } from '@web/features/auth/api';
import { listView } from '@web/lib/list-view';
import { useSearchParams } from 'wouter';
import { agencyMembersQuery } from '../api';
import { AgencyBook } from './agency-book';
import { AgencySettingsForm } from './agency-settings-form';
import { InvitesPanel } from './invites-panel';
import { ListCard } from './list-card';
import { ManageMemberDialog, RemoveMemberButton } from './member-actions';
import { MembersTable } from './members-table';
import { PerformanceTable } from './performance-table';

const TABS = ['members', 'book', 'performance', 'settings', 'audit'] as const;
/** the tabs only the OWNER has */
const OWNER_TABS: readonly string[] = ['settings', 'audit'];
type Tab = (typeof TABS)[number];

/**
 * The OWNER's and a MANAGER's agency: Members (with invites), Book of business, Performance, and
 * for the OWNER Settings and Audit; the open tab is kept in the URL (`?tab=`).
 */
export function AgencyTabs({ mine }: { mine: MyAgency }) {
  const [url, setUrl] = useSearchParams();
  const owner = mine.role === 'OWNER';
  const tabs = TABS.filter((t) => owner || !OWNER_TABS.includes(t));
  const tab: Tab = tabs.find((t) => t === url.get('tab')) ?? 'members';
  const members = useQuery(agencyMembersQuery);
  const me = useCurrentUser().data;
  const list = members.data ?? [];
  const view = listView(members, list.length);
  const error = {
    message: 'The members could not be loaded.',
    onRetry: () => members.refetch(),
    retrying: members.isFetching,
  };

  const actions = (member: AgencyMember) => {
    const self = member.userId === me?.id;
    if (owner) return <ManageMemberDialog member={member} members={list} isSelf={self} />;
    return self ? null : <RemoveMemberButton member={member} />;
  };

  return (
    <Tabs
      value={tab}
      onValueChange={(value) =>
        setUrl(
          (prev) => {
            const next = new URLSearchParams(prev);
            if (value === 'members') next.delete('tab');
            else next.set('tab', value);
            return next;
          },
          { replace: true },
        )
      }
    >
      <TabsList aria-label="Agency">
        <TabsTrigger value="members">Members</TabsTrigger>
        <TabsTrigger value="book">Book of business</TabsTrigger>
        <TabsTrigger value="performance">Performance</TabsTrigger>
        {owner && <TabsTrigger value="settings">Settings</TabsTrigger>}
        {owner && <TabsTrigger value="audit">Audit</TabsTrigger>}
      </TabsList>
      <TabsContent value="members" className="space-y-8">
        <ListCard>
          <MembersTable mine={mine} members={list} view={view} error={error} actions={actions} />
        </ListCard>
        <InvitesPanel mine={mine} members={list} />
      </TabsContent>
      <TabsContent value="book">
        <Card className="max-md:border-0 max-md:bg-transparent max-md:py-0 max-md:shadow-none">
          <CardContent className="max-md:px-0">
            <AgencyBook members={list} />
          </CardContent>
        </Card>
      </TabsContent>
      <TabsContent value="performance" className="space-y-3">
        <p className="text-muted-foreground text-sm">
          The last 30 days of each member: median minutes from receiving a lead to first contact,
          leads received and converted.
        </p>
        <ListCard>
          <PerformanceTable members={list} view={view} error={error} />
        </ListCard>
      </TabsContent>
      {owner && (
        <TabsContent value="audit">
          <Card className="max-md:border-0 max-md:bg-transparent max-md:py-0 max-md:shadow-none">
            <CardContent className="max-md:px-0">
              <AgencyAudit />
            </CardContent>
          </Card>
        </TabsContent>
      )}
      {owner && (
        <TabsContent value="settings">
          <Card>
            <CardContent>
              <AgencySettingsForm mine={mine} />
            </CardContent>
          </Card>
        </TabsContent>
      )}
    </Tabs>
  );
}
