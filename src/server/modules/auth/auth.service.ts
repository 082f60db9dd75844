import type { AdminUser, LoginBody, RegisterBody } from '../../../shared/contracts/auth';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import type { SessionUser } from '../../types';
import type { LoginThrottle, RegistrationThrottle } from './login-throttle';
import { passwordProblem } from './password-policy';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import {
  createSession,
  deleteSession,
  deleteSessionsOfUser,
  findSessionUser,
  hashToken,
  type SessionPolicy,
} from './sessions.repository';
import { findUserByEmail, insertUser, writeDisabled } from './users.repository';

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
 * Registration always makes an AGENT; no route can make an admin. The password is hashed before
 * the email is looked at, so a taken email costs the same argon2 work and time as a new account,
 * and every attempt counts against the caller's registration limit, a 409 included.
 */
export async function registerAgent(
  db: Db,
  body: RegisterBody,
  ip: string,
  throttle: RegistrationThrottle,
): Promise<SessionUser> {
  const problem = passwordProblem(body.password);
  if (problem) throw badRequest(problem);
  const wait = throttle.reserve(ip);
  if (wait > 0) throw tooMany(wait, 'Too many registrations. Try again later.');
  let passwordHash: string;
  try {
    passwordHash = await hashPassword(body.password);
  } catch (err) {
    throttle.release(ip);
    throw err;
  }
  // the unique index decides (races are safe): null when the email is taken, whatever its case
  const user = await insertUser(db, {
    name: body.name,
    email: body.email,
    passwordHash,
    role: 'AGENT',
  });
  if (!user) throw conflict('An account with this email already exists');
  return user;
}

export async function login(
  db: Db,
  body: LoginBody,
  ip: string,
  throttle: LoginThrottle,
  policy: SessionPolicy,
): Promise<{ user: SessionUser; token: string }> {
  const email = body.email.trim().toLowerCase();
  // the attempt is counted before the password is checked (see LoginThrottle.reserve)
  const wait = throttle.reserve(email, ip);
  if (wait > 0) throw tooMany(wait, 'Too many login attempts. Try again later.');
  let row: Awaited<ReturnType<typeof findUserByEmail>>;
  let ok: boolean;
  try {
    row = await findUserByEmail(db, email);
    ok = row ? await verifyPassword(row.passwordHash, body.password) : false;
    if (!row) await burnPasswordCheck(body.password);
  } catch (err) {
    // never checked (busy, database down): the attempt does not count against anyone
    throttle.release(email, ip);
    throw err;
  }
  if (!row || !ok) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  throttle.recordSuccess(email, ip);
  // said only to whoever knows the password: a guesser learns nothing new
  if (row.disabledAt !== null) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
  const token = await createSession(db, row.id, policy);
  return { user: { id: row.id, name: row.name, email: row.email, role: row.role }, token };
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
): Promise<{ user: SessionUser; tokenHash: string; endsAt: Date } | null> {
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
    if (user && input.disabled) await deleteSessionsOfUser(tx, input.userId);
    return user;
  });
  if (!row) throw notFound('User');
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}
