import {
  type AdminUser,
  type LoginBody,
  NOT_APPROVED_MESSAGE,
  type RegisterBody,
} from '../../../shared/contracts/auth';
import type { RegistrationMode } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import type { SessionUser } from '../../types';
import { linkUrl, newLinkToken } from './account-links';
import { consumeInvite, findUsableInvite, insertInvite } from './account-links.repository';
import {
  type LoginThrottle,
  type RegistrationThrottle,
  tooManyFailedAttempts,
} from './login-throttle';
import { passwordProblem } from './password-policy';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
  hashToken,
  type SessionPolicy,
} from './sessions.repository';
import { secondFactors, startPendingLogin } from './two-factor.service';
import { findUserByEmail, insertUser, writeApproval, writeDisabled } from './users.repository';

/** For modules that create users themselves (the demo seeder): the same argon2 profile and cap. */
export { hashPassword } from './passwords';
/** The account's table is auth's: the agent's pause, licence and phone are written here. */
export {
  clearPause,
  setPhone,
  setPhoneVerified,
  writeLicensedStates,
  writePause,
} from './users.repository';

function tooMany(waitMs: number, message: string): AppError {
  return new AppError('TOO_MANY_REQUESTS', message, {
    'retry-after': String(Math.ceil(waitMs / 1000)),
  });
}

/** An account created as it is (the demo seed): null when the email is taken. */
export { insertUser };

/**
 * An agency's invite code, for a registration through its join link (the agencies module's, given
 * by whoever builds the app): whether it can still be used, and the join in the registration's
 * transaction.
 */
export interface AgencyInvitePort {
  usable(db: Db, code: string): Promise<boolean>;
  join(tx: Db, userId: number, code: string): Promise<'JOINED' | 'GONE' | 'MEMBER'>;
}

export const AGENCY_INVITE_UNUSABLE =
  "This agency's invite link is not valid any more: ask the agency for a new one";

/**
 * Registration always makes an AGENT; no route can make an admin. The password is hashed before
 * the email is looked at, so a taken email costs the same argon2 work and time as a new account,
 * and every attempt counts against the caller's registration limit, a 409 included. Who may sign
 * up is REGISTRATION's (docs/domain.md, Accounts): anyone (open), anyone but PENDING until an
 * admin approves (approval), or only with an admin's invite, used once, or an agency's invite
 * (invite). An agency's invite code makes the new account a member in the same transaction, in
 * every mode; in `invite` mode it stands for the admin's invite (the agency invited them).
 */
export async function registerAgent(
  db: Db,
  body: RegisterBody,
  ip: string,
  throttle: RegistrationThrottle,
  mode: RegistrationMode,
  agencyInvites: AgencyInvitePort,
): Promise<SessionUser> {
  const agencyCode = body.agencyInvite;
  const problem = passwordProblem(body.password);
  if (problem) throw badRequest(problem);
  const wait = await throttle.reserve(ip);
  if (wait > 0) throw tooMany(wait, 'Too many registrations. Try again later.');
  let passwordHash: string;
  try {
    if (agencyCode !== undefined) {
      if (!(await agencyInvites.usable(db, agencyCode))) {
        throw new AppError('FORBIDDEN', AGENCY_INVITE_UNUSABLE);
      }
    } else if (mode === 'invite') await checkInvite(db, body.invite, body.email);
    passwordHash = await hashPassword(body.password);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'FORBIDDEN'))
      await throttle.release(ip).catch(() => undefined);
    throw err;
  }
  const values = {
    name: body.name,
    email: body.email,
    passwordHash,
    role: 'AGENT' as const,
    approval: mode === 'approval' ? ('PENDING' as const) : ('APPROVED' as const),
  };
  return db.transaction(async (tx) => {
    // the unique index decides (races are safe): null when the email is taken, whatever its case
    const user = await insertUser(tx, values);
    if (!user) throw conflict('An account with this email already exists');
    // the invite is used in the same transaction: of two registrations with one invite, one wins
    if (agencyCode !== undefined) {
      if ((await agencyInvites.join(tx, user.id, agencyCode)) !== 'JOINED') {
        throw new AppError('FORBIDDEN', AGENCY_INVITE_UNUSABLE);
      }
    } else if (
      mode === 'invite' &&
      !(await consumeInvite(tx, hashToken(body.invite ?? ''), user.id))
    ) {
      throw new AppError('FORBIDDEN', INVITE_UNUSABLE);
    }
    return user;
  });
}

export const INVITE_REQUIRED =
  'Registration is by invitation only: ask an admin for an invite link';
export const INVITE_UNUSABLE = 'This invite link has expired or was already used';

async function checkInvite(db: Db, token: string | undefined, email: string): Promise<void> {
  if (!token) throw new AppError('FORBIDDEN', INVITE_REQUIRED);
  const invite = await findUsableInvite(db, hashToken(token));
  if (!invite) throw new AppError('FORBIDDEN', INVITE_UNUSABLE);
  if (invite.email !== null && invite.email !== email.toLowerCase()) {
    throw new AppError('FORBIDDEN', 'This invite is for another email address');
  }
}

/** How long an invite link works (docs/domain.md, Accounts). */
export const INVITE_DAYS = 7;

/** An admin's invite link: PUBLIC_URL/register?invite=..., for one email or anyone. */
export async function createInvite(
  db: Db,
  publicUrl: string,
  adminId: number,
  email: string | null,
): Promise<string> {
  const { token, tokenHash } = newLinkToken();
  await insertInvite(db, {
    tokenHash,
    email,
    createdBy: adminId,
    expiresAt: new Date(Date.now() + INVITE_DAYS * 86_400_000),
  });
  return linkUrl(publicUrl, 'register', 'invite', token);
}

/**
 * An admin's decision on an agent: approved, the agent works and gets leads; refused, the agent
 * cannot log in and every session of theirs ends. False when there is no such agent.
 */
export async function setAgentApproval(
  db: Db,
  agentId: number,
  approve: boolean,
): Promise<boolean> {
  const found = await writeApproval(db, agentId, approve ? 'APPROVED' : 'REFUSED');
  if (found && !approve) await deleteUserSessions(db, agentId);
  return found;
}

export async function login(
  db: Db,
  body: LoginBody,
  ip: string,
  throttle: LoginThrottle,
  policy: SessionPolicy,
): Promise<
  | { user: SessionUser; token: string }
  | { pendingToken: string; methods: { totp: boolean; passkey: boolean } }
> {
  const email = body.email.trim().toLowerCase();
  // the attempt is counted before the password is checked (see LoginThrottle.reserve)
  const wait = await throttle.reserve(email, ip);
  if (wait > 0) throw tooManyFailedAttempts(wait);
  let row: Awaited<ReturnType<typeof findUserByEmail>>;
  let ok: boolean;
  try {
    row = await findUserByEmail(db, email);
    ok = row ? await verifyPassword(row.passwordHash, body.password) : false;
    if (!row) await burnPasswordCheck(body.password);
  } catch (err) {
    // never checked (busy, database down): the attempt does not count against anyone
    await throttle.release(email, ip).catch(() => undefined);
    throw err;
  }
  if (!row || !ok) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  await throttle.recordSuccess(email, ip);
  if (row.approval === 'REFUSED') throw new AppError('FORBIDDEN', NOT_APPROVED_MESSAGE.REFUSED);
  // said only to whoever knows the password: a guesser learns nothing new
  if (row.disabledAt !== null) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
  // two factors on: no session yet, a pending login the code step completes
  const methods = await secondFactors(db, row.id);
  if (methods.totp || methods.passkey) {
    return { pendingToken: await startPendingLogin(db, row.id), methods };
  }
  const token = await createSession(db, row.id, policy);
  const { id, name, role, approval } = row;
  return { user: { id, name, email: row.email, role, approval }, token };
}

export async function logout(db: Db, tokenHash: string | null): Promise<void> {
  if (tokenHash) await deleteSession(db, tokenHash);
}

/**
 * The live session behind a cookie's token (plugins/auth): its user, the token's hash, and when
 * the session ends unless another request comes first.
 */
export async function findSession(
  db: Db,
  token: string,
  policy: SessionPolicy,
): Promise<{
  user: SessionUser;
  tokenHash: string;
  endsAt: Date;
  twoFactor: boolean;
  agencyRequiresTwoFactor: boolean;
} | null> {
  const tokenHash = hashToken(token);
  const found = await findSessionUser(db, tokenHash, policy);
  return found ? { ...found, tokenHash } : null;
}

export const ACCOUNT_DISABLED = 'This account is disabled';

/**
 * An admin disables an account, or enables it again (docs/domain.md, Offboarding). Disabling
 * deletes every session of the account in the same transaction (the trigger on `sessions` ends
 * their live streams in every process); the session check and login refuse it from then on, and
 * the fit rule gives it no lead. Enabling lets it log in again; the old sessions stay gone. An
 * admin cannot disable themself (the agency would lose the account that can undo it).
 */
export async function setUserDisabled(
  db: Db,
  input: { adminId: number; userId: number; disabled: boolean },
): Promise<AdminUser> {
  if (input.disabled && input.userId === input.adminId) {
    throw conflict('You cannot disable your own account');
  }
  const row = await db.transaction(async (tx) => {
    const user = await writeDisabled(tx, input.userId, input.disabled);
    if (user && input.disabled) await deleteUserSessions(tx, input.userId);
    return user;
  });
  if (!row) throw notFound('User');
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    approval: row.approval,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}
