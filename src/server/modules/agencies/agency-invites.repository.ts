import { and, eq, sql } from 'drizzle-orm';
import type { AgencyInvite } from '../../../shared/contracts/agency';
import type { AgencyRole } from '../../../shared/domain';
import { type Db, queryRows } from '../../db/client';
import { isoInstant } from '../../db/iso-instant';
import { agencyInvites } from '../../db/schema';

export async function insertInvite(
  db: Db,
  invite: {
    agencyId: number;
    codeHash: string;
    role: AgencyRole;
    managerId: number | null;
    maxUses: number | null;
    expiresAt: Date;
    createdBy: number;
  },
): Promise<number> {
  const [row] = await db.insert(agencyInvites).values(invite).returning({ id: agencyInvites.id });
  return row.id;
}

/**
 * The agency's invites, newest first; `managerId`: only those into that manager's team (a
 * MANAGER sees theirs).
 */
export function listInvites(
  db: Db,
  agencyId: number,
  managerId: number | null,
): Promise<AgencyInvite[]> {
  return queryRows<AgencyInvite>(
    db,
    sql`select i.id, i.role::text as role, i.max_uses as "maxUses", i.uses,
               ${isoInstant(sql`i.expires_at`)} as "expiresAt",
               ${isoInstant(sql`i.created_at`)} as "createdAt",
               case when mu.id is null then null
                    else json_build_object('id', mu.id, 'name', mu.name) end as manager,
               case when cu.id is null then null
                    else json_build_object('id', cu.id, 'name', cu.name) end as "createdBy",
               (i.expires_at > now() and (i.max_uses is null or i.uses < i.max_uses)) as usable
          from agency_invites i
          left join users mu on mu.id = i.manager_id
          left join users cu on cu.id = i.created_by
         where i.agency_id = ${agencyId}
           ${managerId === null ? sql`` : sql`and i.manager_id = ${managerId}`}
         order by i.id desc`,
  );
}

/** Deletes one invite of the agency (of the manager's team, when named); false when none. */
export async function deleteInvite(
  db: Db,
  agencyId: number,
  inviteId: number,
  managerId: number | null,
): Promise<boolean> {
  const rows = await db
    .delete(agencyInvites)
    .where(
      and(
        eq(agencyInvites.id, inviteId),
        eq(agencyInvites.agencyId, agencyId),
        managerId === null ? undefined : eq(agencyInvites.managerId, managerId),
      ),
    )
    .returning({ id: agencyInvites.id });
  return rows.length > 0;
}

/** What the join page shows of a usable invite; null when unknown, expired or used up. */
export async function findUsableInvite(
  db: Db,
  codeHash: string,
): Promise<{ agencyName: string; ownerName: string; role: AgencyRole } | null> {
  const [row] = await queryRows<{ agencyName: string; ownerName: string; role: AgencyRole }>(
    db,
    sql`select a.name as "agencyName", o.name as "ownerName", i.role::text as role
          from agency_invites i
          join agencies a on a.id = i.agency_id
          join agency_members om on om.agency_id = a.id and om.role = 'OWNER'
          join users o on o.id = om.user_id
         where i.code_hash = ${codeHash} and i.expires_at > now()
           and (i.max_uses is null or i.uses < i.max_uses)
         limit 1`,
  );
  return row ?? null;
}

/**
 * Takes one use of a usable invite, by one conditional UPDATE: two joins at once never pass
 * max_uses (the second waits for the first's row lock and then sees its count). Null when the
 * code is unknown, expired or used up.
 */
export async function takeInviteUse(
  tx: Db,
  codeHash: string,
): Promise<{ agencyId: number; role: AgencyRole; managerId: number | null } | null> {
  const [row] = await queryRows<{ agencyId: number; role: AgencyRole; managerId: number | null }>(
    tx,
    sql`update agency_invites set uses = uses + 1
         where code_hash = ${codeHash} and expires_at > now()
           and (max_uses is null or uses < max_uses)
         returning agency_id as "agencyId", role::text as role, manager_id as "managerId"`,
  );
  return row ?? null;
}
