import type { LoginBody, RegisterBody } from '../../../shared/contracts/auth';
import type { Db } from '../../db/client';
import { AppError, conflict } from '../../lib/app-error';
import type { SessionUser } from '../../types';
import type { LoginThrottle } from './login-throttle';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { createSession, deleteSession, type SessionPolicy } from './sessions.repository';
import { findUserByEmail, insertUser } from './users.repository';

/** Registration always makes an AGENT; no route can make an admin. */
export async function registerAgent(db: Db, body: RegisterBody): Promise<SessionUser> {
  if (await findUserByEmail(db, body.email))
    throw conflict('An account with this email already exists');
  const user = await insertUser(db, {
    name: body.name,
    email: body.email,
    passwordHash: await hashPassword(body.password),
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
  if (wait > 0) {
    throw new AppError('TOO_MANY_REQUESTS', 'Too many login attempts. Try again later.', {
      'retry-after': String(Math.ceil(wait / 1000)),
    });
  }
  const row = await findUserByEmail(db, email);
  const ok = row ? await verifyPassword(row.passwordHash, body.password) : false;
  if (!row) await burnPasswordCheck(body.password);
  if (!row || !ok) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  throttle.recordSuccess(email, ip);
  const token = await createSession(db, row.id, policy);
  return { user: { id: row.id, name: row.name, email: row.email, role: row.role }, token };
}

export async function logout(db: Db, tokenHash: string | null): Promise<void> {
  if (tokenHash) await deleteSession(db, tokenHash);
}
