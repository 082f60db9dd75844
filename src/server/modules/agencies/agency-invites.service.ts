/**
 * Joining an agency (docs/domain.md, Agencies, "Joining"): invite codes made by the owner or a
 * manager, the join page's public look-up, and an agent's join. A code is shown once; only its
 * SHA-256 is kept (decision 027).
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AGENCY_INVITE_DAYS,
  type AgencyInvite,
  type CreateInviteBody,
  type InviteCreated,
  type InviteLookup,
  type MyAgency,
} from '../../../shared/contracts/agency';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { takeHit } from '../rate-limits/rate-limits.service';
import { findMembership, insertMember, lockAgency, lockMembers } from './agencies.repository';
import { ALREADY_MEMBER, membershipOf, myAgency } from './agencies.service';
import {
  deleteInvite,
  findUsableInvite,
  insertInvite,
  listInvites,
  takeInviteUse,
} from './agency-invites.repository';

/** One answer for an unknown, expired or used-up code, so a code's fate is not told apart. */
export const INVITE_GONE = 'This invite code is not valid: it may have expired or been used up';

/** Look-ups of codes per client address a minute (the join page asks once per visit). */
const LOOKUPS_PER_MINUTE = 30;
/** Joins tried per agent a minute. */
const JOINS_PER_MINUTE = 10;

/** 18 random bytes in base64url: 24 characters, 144 bits, fit for a link. */
function newCode(): { code: string; codeHash: string } {
  const code = randomBytes(18).toString('base64url');
  return { code, codeHash: hashCode(code) };
}

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}

/**
 * An invite code: the OWNER may invite a MANAGER or an AGENT into any team (the manager named
 * must be a MANAGER or the OWNER); a MANAGER only AGENTs into their own team. Works for
 * `expiresInDays` (7 unless said) and `maxUses` joins (any number when null).
 */
export async function createAgencyInvite(
  db: Db,
  publicUrl: string,
  userId: number,
  body: CreateInviteBody,
): Promise<InviteCreated> {
  const me = await membershipOf(db, userId);
  let managerId = body.managerId ?? null;
  if (me.role === 'AGENT') {
    throw new AppError('FORBIDDEN', "Only the agency's owner or a manager can invite");
  }
  if (me.role === 'MANAGER') {
    if (body.role !== 'AGENT') {
      throw new AppError('FORBIDDEN', 'A manager invites agents only');
    }
    if (managerId !== null && managerId !== me.userId) {
      throw new AppError('FORBIDDEN', 'A manager invites into their own team only');
    }
    managerId = me.userId;
  } else if (managerId !== null) {
    const manager = await findMembership(db, managerId);
    if (!manager || manager.agencyId !== me.agencyId || manager.role === 'AGENT') {
      throw badRequest('The manager must be a manager or the owner of the agency');
    }
  }
  const { code, codeHash } = newCode();
  const days = body.expiresInDays ?? AGENCY_INVITE_DAYS;
  const id = await insertInvite(db, {
    agencyId: me.agencyId,
    codeHash,
    role: body.role,
    managerId,
    maxUses: body.maxUses ?? null,
    expiresAt: new Date(Date.now() + days * 86_400_000),
    createdBy: userId,
  });
  return { id, code, url: `${publicUrl}/join/${encodeURIComponent(code)}` };
}

/** The OWNER sees every invite of the agency; a MANAGER those into their team. */
export async function agencyInvites(db: Db, userId: number): Promise<AgencyInvite[]> {
  const me = await membershipOf(db, userId);
  if (me.role === 'AGENT') {
    throw new AppError('FORBIDDEN', "Only the agency's owner or a manager can see invites");
  }
  return listInvites(db, me.agencyId, me.role === 'OWNER' ? null : me.userId);
}

export async function revokeAgencyInvite(db: Db, userId: number, inviteId: number): Promise<void> {
  const me = await membershipOf(db, userId);
  if (me.role === 'AGENT') {
    throw new AppError('FORBIDDEN', "Only the agency's owner or a manager can revoke invites");
  }
  const deleted = await deleteInvite(
    db,
    me.agencyId,
    inviteId,
    me.role === 'OWNER' ? null : me.userId,
  );
  if (!deleted) throw notFound('Invite');
}

/** The join page's look-up (public, throttled per client address): 404 for any unusable code. */
export async function lookUpInvite(db: Db, client: string, code: string): Promise<InviteLookup> {
  await takeHit(
    db,
    `agency-invite-lookup:${client}`,
    { limit: LOOKUPS_PER_MINUTE, windowSeconds: 60 },
    'Too many invite look-ups: try again in a minute',
  );
  const invite = await findUsableInvite(db, hashCode(code));
  if (!invite) throw new AppError('NOT_FOUND', INVITE_GONE);
  return invite;
}

/**
 * A logged-in agent joins with a code: 409 when already a member of an agency; 404 for an
 * unknown, expired or used-up code. The use is taken by one conditional UPDATE in the join's
 * transaction, so max_uses holds under any number of joins at once, and a join refused after it
 * gives the use back (the transaction rolls back). The manager the invite named must still be a
 * MANAGER or the OWNER; else the joiner is the owner's own.
 */
export async function joinAgency(db: Db, userId: number, code: string): Promise<MyAgency> {
  await takeHit(
    db,
    `agency-join:${userId}`,
    { limit: JOINS_PER_MINUTE, windowSeconds: 60 },
    'Too many attempts to join: try again in a minute',
  );
  if (await findMembership(db, userId)) throw conflict(ALREADY_MEMBER);
  await db.transaction(async (tx) => {
    const joined = await joinWithCode(tx, userId, code);
    if (joined === 'GONE') throw new AppError('NOT_FOUND', INVITE_GONE);
    if (joined === 'MEMBER') throw conflict(ALREADY_MEMBER);
  });
  return myAgency(db, userId);
}

/**
 * The join itself, in the caller's transaction (a join, or a registration through the join link:
 * the account is a member from its first moment): takes one use of the code and makes the user a
 * member. GONE: the code is unknown, expired or used up; MEMBER: the user is in an agency already.
 */
export async function joinWithCode(
  tx: Db,
  userId: number,
  code: string,
): Promise<'JOINED' | 'GONE' | 'MEMBER'> {
  const invite = await takeInviteUse(tx, hashCode(code));
  if (!invite || !(await lockAgency(tx, invite.agencyId))) return 'GONE';
  const members = await lockMembers(tx, invite.agencyId);
  const manager = members.find((m) => m.userId === invite.managerId && m.role !== 'AGENT');
  const joined = await insertMember(tx, {
    userId,
    agencyId: invite.agencyId,
    role: invite.role === 'OWNER' ? 'AGENT' : invite.role,
    managerId: manager ? manager.userId : null,
  });
  return joined ? 'JOINED' : 'MEMBER';
}

/** Whether an agency's invite code can still be used (a registration checks it first). */
export async function agencyInviteUsable(db: Db, code: string): Promise<boolean> {
  return (await findUsableInvite(db, hashCode(code))) !== null;
}
