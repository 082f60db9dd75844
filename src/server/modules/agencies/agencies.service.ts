/**
 * Agencies and their members (docs/domain.md, Agencies): creating one, the member's view of it,
 * the owner's settings, leaving, removing, changing a member's role or manager, and the platform
 * admins' list and suspension. Every check of who may do what is here; routes only delegate.
 */
import type {
  AdminAgency,
  MyAgency,
  UpdateAgencyBody,
  UpdateMemberBody,
} from '../../../shared/contracts/agency';
import type { AgencyStatus, SubscriptionStatus } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { endAgencyPayment, setAgencyPaidStatus } from '../subscriptions/subscriptions.service';
import {
  deleteAgency,
  deleteMember,
  findAgency,
  findAgencyForAdmin,
  findAgencyPaidUserIds,
  findMembership,
  findOwner,
  insertAgencyWithOwner,
  listAgenciesForAdmin,
  lockAgency,
  lockMembers,
  type Membership,
  releaseTeam,
  updateAgency,
  updateAgencyStatus,
  updateMember,
  userNames,
} from './agencies.repository';
import type { AfterCommit, AgencySeats } from './agency-seats';

export type { Membership } from './agencies.repository';

export const NOT_A_MEMBER = 'You are not a member of an agency';
export const ALREADY_MEMBER = 'You are already a member of an agency: leave it first';

/** The caller's membership; 404 when they belong to no agency. */
export async function membershipOf(db: Db, userId: number): Promise<Membership> {
  const me = await findMembership(db, userId);
  if (!me) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
  return me;
}

export function ownerOnly(me: Membership, what: string): void {
  if (me.role !== 'OWNER') throw new AppError('FORBIDDEN', `Only the agency's owner can ${what}`);
}

/**
 * Whether the caller sees the member: the OWNER every member of the agency, a MANAGER their team
 * and themselves, an AGENT themselves.
 */
export function seesMember(me: Membership, member: Membership): boolean {
  if (member.agencyId !== me.agencyId) return false;
  if (me.role === 'OWNER' || member.userId === me.userId) return true;
  return me.role === 'MANAGER' && member.managerId === me.userId;
}

/** A member of the caller's agency in their scope; 404 otherwise (another agency's too). */
export async function memberInScope(db: Db, me: Membership, userId: number): Promise<Membership> {
  const member = await findMembership(db, userId);
  if (!member || !seesMember(me, member)) throw notFound('Member');
  return member;
}

/** An agent creates an agency and becomes its OWNER; 409 when already a member of one. */
export async function createAgency(db: Db, userId: number, name: string): Promise<MyAgency> {
  const created = await db.transaction(async (tx) => {
    if (await findMembership(tx, userId, true)) return null;
    return insertAgencyWithOwner(tx, name, userId);
  });
  if (created === null) throw conflict(ALREADY_MEMBER);
  return myAgency(db, userId);
}

/** The caller's agency, their role, their manager (the owner when none is named) and the owner. */
export async function myAgency(db: Db, userId: number): Promise<MyAgency> {
  const me = await membershipOf(db, userId);
  const [agency, owner, paid] = await Promise.all([
    findAgency(db, me.agencyId),
    findOwner(db, me.agencyId),
    agencyPays(db, userId, me.agencyId),
  ]);
  if (!agency || !owner) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
  let manager: MyAgency['manager'] = null;
  if (me.role !== 'OWNER') {
    const managerId = me.managerId ?? owner.id;
    const names = await userNames(db, [managerId]);
    manager = { id: managerId, name: names.get(managerId) ?? owner.name };
  }
  return { agency, role: me.role, manager, owner, paidByAgency: paid };
}

async function agencyPays(db: Db, userId: number, agencyId: number): Promise<boolean> {
  return (await findAgencyPaidUserIds(db, agencyId)).includes(userId);
}

/** The owner's settings: name, daily cap, reclaim delay. */
export async function editAgency(
  db: Db,
  userId: number,
  body: UpdateAgencyBody,
): Promise<MyAgency> {
  const me = await membershipOf(db, userId);
  ownerOnly(me, "change the agency's settings");
  await updateAgency(db, me.agencyId, body);
  return myAgency(db, userId);
}

/**
 * How a departing member's uncontacted agency leads go back (docs/domain.md, Agencies, leaving):
 * `inTransaction` (the membership's end) runs first in the release's own transaction, then the
 * leads are taken back and handed to the agency's other members or the engine. Given by the app
 * (the reclaim module does it), so that this module does not reach into assignment.
 */
export type MemberRelease = (
  db: Db,
  input: { userId: number; agencyId: number; actorId: number },
  inTransaction: (tx: Db) => Promise<void>,
) => Promise<unknown>;

/**
 * What ends a membership, in the membership's transaction: the agency stops paying the member's
 * package (its seat released), then the membership goes (the members they managed become the
 * owner's own).
 */
async function endMembership(
  tx: Db,
  seats: AgencySeats,
  member: Membership,
): Promise<AfterCommit | null> {
  const afterCommit = (await endAgencyPayment(tx, member.userId, member.agencyId))
    ? await seats.changed(tx, member.agencyId)
    : null;
  await deleteMember(tx, member.agencyId, member.userId);
  return afterCommit;
}

/** The agency a member is in before their departure's transaction (checked again inside it). */
async function agencyBefore(db: Db, userId: number): Promise<number> {
  const found = await findMembership(db, userId);
  if (!found) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
  return found.agencyId;
}

/** The membership moved to another agency between the two reads: the caller tries again. */
const MOVED = 'The membership changed meanwhile: try again';

/**
 * The caller leaves their agency. The OWNER cannot while other members remain (409: hand the
 * agency over first); the last member leaving deletes the agency.
 */
export async function leaveAgency(
  db: Db,
  seats: AgencySeats,
  release: MemberRelease,
  userId: number,
): Promise<void> {
  const agencyId = await agencyBefore(db, userId);
  let afterCommit = null as AfterCommit | null;
  await release(db, { userId, agencyId, actorId: userId }, async (tx) => {
    const found = await findMembership(tx, userId);
    if (!found) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
    if (found.agencyId !== agencyId) throw conflict(MOVED);
    await lockAgency(tx, found.agencyId);
    const members = await lockMembers(tx, found.agencyId);
    const me = members.find((m) => m.userId === userId);
    if (!me) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
    if (me.role === 'OWNER' && members.length > 1) {
      throw conflict('Hand the agency over first: make another member its owner, then leave');
    }
    afterCommit = await endMembership(tx, seats, me);
    if (members.length === 1) await deleteAgency(tx, me.agencyId);
  });
  await afterCommit?.();
}

/** The OWNER removes any other member; a MANAGER a member of their own team. */
export async function removeMember(
  db: Db,
  seats: AgencySeats,
  release: MemberRelease,
  userId: number,
  memberId: number,
): Promise<void> {
  const agencyId = await agencyBefore(db, userId);
  let afterCommit = null as AfterCommit | null;
  await release(db, { userId: memberId, agencyId, actorId: userId }, async (tx) => {
    const me = await findMembership(tx, userId);
    if (!me) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
    if (me.agencyId !== agencyId) throw conflict(MOVED);
    if (me.role === 'AGENT') {
      throw new AppError('FORBIDDEN', "Only the agency's owner or a manager can remove members");
    }
    await lockAgency(tx, me.agencyId);
    const members = await lockMembers(tx, me.agencyId);
    const member = members.find((m) => m.userId === memberId);
    if (!member || !seesMember(me, member)) throw notFound('Member');
    if (member.userId === me.userId) {
      throw conflict('You cannot remove yourself: leave the agency instead');
    }
    afterCommit = await endMembership(tx, seats, member);
  });
  await afterCommit?.();
}

/**
 * The OWNER changes a member's role or manager. Making another member OWNER hands the agency
 * over: the old owner becomes a MANAGER. A manager named must be a MANAGER or the OWNER of the
 * agency; a MANAGER made an AGENT hands their team back to the owner. Answers the agency's id.
 */
export async function changeMember(
  db: Db,
  userId: number,
  memberId: number,
  body: UpdateMemberBody,
): Promise<number> {
  return db.transaction(async (tx) => {
    const me = await findMembership(tx, userId);
    if (!me) throw new AppError('NOT_FOUND', NOT_A_MEMBER);
    ownerOnly(me, "change members' roles");
    await lockAgency(tx, me.agencyId);
    const members = await lockMembers(tx, me.agencyId);
    const member = members.find((m) => m.userId === memberId);
    if (!member) throw notFound('Member');
    if (body.managerId !== undefined && body.managerId !== null) {
      const manager = members.find((m) => m.userId === body.managerId);
      if (!manager || manager.role === 'AGENT') {
        throw badRequest('The manager must be a manager or the owner of the agency');
      }
      if (manager.userId === member.userId) throw badRequest('A member cannot manage themself');
    }
    if (body.role === 'OWNER') {
      if (member.userId !== me.userId) {
        await updateMember(tx, me.userId, { role: 'MANAGER', managerId: null });
        await updateMember(tx, member.userId, { role: 'OWNER', managerId: null });
      }
      return me.agencyId;
    }
    if (member.role === 'OWNER' && body.role !== undefined) {
      throw conflict('Hand the agency over first: make another member its owner');
    }
    if (member.role === 'MANAGER' && body.role === 'AGENT') {
      await releaseTeam(tx, me.agencyId, member.userId);
    }
    await updateMember(tx, member.userId, {
      ...(body.role !== undefined ? { role: body.role } : {}),
      ...(body.managerId !== undefined && member.role !== 'OWNER'
        ? { managerId: body.managerId }
        : {}),
    });
    return me.agencyId;
  });
}

/** The platform admins' list of agencies. */
export function listAgencies(db: Db): Promise<AdminAgency[]> {
  return listAgenciesForAdmin(db);
}

/**
 * The status an agency-paid subscription takes from the agency's standing: INACTIVE while the
 * agency is SUSPENDED, else what its payment says (ACTIVE without Stripe).
 */
export function paidStatusOf(
  status: AgencyStatus,
  billing: SubscriptionStatus | null,
): SubscriptionStatus {
  if (status === 'SUSPENDED') return 'INACTIVE';
  return billing ?? 'ACTIVE';
}

/**
 * An admin suspends or restores an agency. Suspended, its members get no leads, and every package
 * it pays is held (INACTIVE, as set by the agency: the member cannot lift it); restored, the hold
 * lifts to what the agency's payment says (an admin's own hold on one member stays).
 */
export async function setAgencyStatus(
  db: Db,
  seats: AgencySeats,
  agencyId: number,
  status: AgencyStatus,
): Promise<AdminAgency> {
  await db.transaction(async (tx) => {
    if (!(await lockAgency(tx, agencyId))) throw notFound('Agency');
    await updateAgencyStatus(tx, agencyId, status);
    const billing = await seats.billingStatus(tx, agencyId);
    await setAgencyPaidStatus(tx, agencyId, paidStatusOf(status, billing));
  });
  const agency = await findAgencyForAdmin(db, agencyId);
  if (!agency) throw notFound('Agency');
  return agency;
}
