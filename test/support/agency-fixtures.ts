/**
 * Agencies in tests (docs/domain.md, Agencies): the route table's fixtures through the API, and
 * the engine's tests' agencies written straight to the tables.
 */
import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../src/server/db/client';
import { agencyMembers, leads, subscriptions } from '../../src/server/db/schema';
import { insertLeads } from './agent-fixtures';
import { type Client, registerAgent, type TestContext } from './test-app';

/** Agencies for the route table (docs/domain.md, Agencies): agent A's agency and its parts. */
export function agencyFixtures(
  ctx: TestContext,
  owner: Client,
  ensureSubscription: (userId: number) => Promise<void>,
) {
  const db = ctx.database.db;
  const packageOf = async (userId: number) => {
    const [row] = await db
      .select({ packageId: subscriptions.packageId })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    return row.packageId;
  };
  const fixtures = {
    /** A's agency (created when A has none), its id */
    async agencyOfAgent(): Promise<number> {
      const res = await owner.get('/api/agency');
      if (res.statusCode === 200) return res.json().agency.id;
      const created = await owner.post('/api/agency', { name: 'Matrix agency' });
      if (created.statusCode !== 201) throw new Error(`agency: ${created.body}`);
      return created.json().agency.id;
    },
    /** a fresh member of A's agency, subscribed to the fixture package, their id */
    async agencyMember(): Promise<number> {
      const agencyId = await fixtures.agencyOfAgent();
      const member = await registerAgent(ctx.app, 'Matrix member');
      await db
        .insert(agencyMembers)
        .values({ userId: member.id, agencyId, role: 'AGENT', managerId: null });
      await ensureSubscription(member.id);
      return member.id;
    },
    /** a fresh member of A's agency whose package the agency pays, their id */
    async agencyPaidMember(): Promise<number> {
      const member = await fixtures.agencyMember();
      const paid = await owner.put(`/api/agency/members/${member}/subscription`, {
        packageId: await packageOf(member),
      });
      if (paid.statusCode !== 200) throw new Error(`pay: ${paid.body}`);
      return member;
    },
    /** a fresh invite code of A's agency (for an AGENT) */
    async agencyInvite(): Promise<{ id: number; code: string }> {
      await fixtures.agencyOfAgent();
      const res = await owner.post('/api/agency/invites', { role: 'AGENT' });
      if (res.statusCode !== 201) throw new Error(`invite: ${res.body}`);
      return res.json();
    },
    /** a fresh lead of A's agency's book, held by the member, its id */
    async agencyLead(memberId: number): Promise<number> {
      const agencyId = await fixtures.agencyOfAgent();
      const [lead] = await insertLeads(db, [{ agentId: memberId, assignedOn: '2020-01-01' }]);
      await db.update(leads).set({ agencyId }).where(eq(leads.id, lead.id));
      return lead.id;
    },
    /** the user in no agency (a membership another row gave them is dropped) */
    async withoutAgency(userId: number): Promise<void> {
      await db.delete(agencyMembers).where(eq(agencyMembers.userId, userId));
    },
  };
  return fixtures;
}

export type AgencyFixtures = ReturnType<typeof agencyFixtures>;
/** An agency for the engine's tests, written straight to the tables. */
export async function createAgency(
  db: Db,
  opts: {
    dailyCap?: number | null;
    reclaimAfterMinutes?: number | null;
    status?: 'ACTIVE' | 'SUSPENDED';
    ownerId?: number;
    members?: number[];
  } = {},
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into agencies (name, status, daily_cap, reclaim_after_minutes)
        values ('Agency', ${opts.status ?? 'ACTIVE'}::agency_status, ${opts.dailyCap ?? null},
                ${opts.reclaimAfterMinutes ?? null})
        returning id`,
  );
  if (opts.ownerId !== undefined) {
    await db.execute(
      sql`insert into agency_members (user_id, agency_id, role)
          values (${opts.ownerId}, ${row.id}, 'OWNER')`,
    );
  }
  for (const userId of opts.members ?? []) {
    await db.execute(
      sql`insert into agency_members (user_id, agency_id, role) values (${userId}, ${row.id}, 'AGENT')`,
    );
  }
  return row.id;
}

export async function resetAgencies(db: Db): Promise<void> {
  await db.execute(sql`truncate agency_members, agencies restart identity cascade`);
}

/** Each lead's agent and agency. */
export async function leadOwners(
  db: Db,
): Promise<Map<number, { agentId: number | null; agencyId: number | null; status: string }>> {
  const rows = await queryRows<{
    id: number;
    agentId: number | null;
    agencyId: number | null;
    status: string;
  }>(
    db,
    sql`select id::int as id, agent_id as "agentId", agency_id as "agencyId", status::text as status
          from leads`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
