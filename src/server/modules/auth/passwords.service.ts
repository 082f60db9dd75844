import type {
  ChangePasswordBody,
  ForgotPasswordBody,
  ResetPasswordBody,
} from '../../../shared/contracts/auth';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, badField, badRequest, notFound } from '../../lib/app-error';
import type { EmailSender } from '../../lib/email-sender';
import type { SessionUser } from '../../types';
import { linkUrl, newLinkToken } from './account-links';
import { consumePasswordReset, insertPasswordReset } from './account-links.repository';
import {
  type LoginThrottle,
  type ResetRequestThrottle,
  tooManyFailedAttempts,
} from './login-throttle';
import { passwordProblem } from './password-policy';
import { hashPassword, verifyPassword } from './passwords';
import { deleteUserSessions, hashToken } from './sessions.repository';
import { findUserByEmail, findUserById, setPasswordHash } from './users.repository';

/** How long a reset link works (docs/domain.md, Accounts). */
export const RESET_LINK_MINUTES = 30;
export const RESET_LINK_EXPIRED = 'This reset link has expired or was already used';

/** A new reset link for the user; the user's earlier links stop working. */
async function makeResetLink(db: Db, publicUrl: string, userId: number): Promise<string> {
  const { token, tokenHash } = newLinkToken();
  await insertPasswordReset(
    db,
    userId,
    tokenHash,
    new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
  );
  return linkUrl(publicUrl, 'reset-password', 'token', token);
}

export interface ResetMail {
  config: Pick<AppConfig, 'PUBLIC_URL' | 'MAIL_FROM'>;
  email: EmailSender | null;
  /** a failed send is logged, never told to the caller */
  onSendError(err: unknown): void;
}

/**
 * "Forgot password?": the same answer whether or not the email has an account. When it has one
 * and SMTP is configured, the link is emailed after the answer, so how long the SMTP server takes
 * tells the caller nothing. Counted per address and per email before anything is looked up.
 */
export async function requestPasswordReset(
  db: Db,
  body: ForgotPasswordBody,
  ip: string,
  throttle: ResetRequestThrottle,
  mail: ResetMail,
): Promise<void> {
  const email = body.email.toLowerCase();
  const wait = await throttle.reserve(email, ip);
  if (wait > 0) {
    throw new AppError('TOO_MANY_REQUESTS', 'Too many reset requests. Try again later.', {
      'retry-after': String(Math.ceil(wait / 1000)),
    });
  }
  const user = await findUserByEmail(db, email);
  if (!user || !mail.email) return;
  const url = await makeResetLink(db, mail.config.PUBLIC_URL, user.id);
  mail.email
    .send({
      from: mail.config.MAIL_FROM,
      to: user.email,
      subject: 'Reset your LeadFlow password',
      text:
        `Someone asked to reset the password of your LeadFlow account.\n\n` +
        `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new password:\n${url}\n\n` +
        `If it was not you, ignore this email: your password stays as it is.`,
    })
    .catch(mail.onSendError);
}

/** The link an admin hands over when there is no SMTP: the same token rules. */
export async function adminResetLink(db: Db, publicUrl: string, userId: number): Promise<string> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User');
  return makeResetLink(db, publicUrl, user.id);
}

/**
 * Sets a new password through a reset link: the link is used up and every session of the user
 * ends (whoever had the old password is signed out).
 */
/** Sets the new password of a reset link's user; answers that user's id. */
export async function resetPassword(db: Db, body: ResetPasswordBody): Promise<number> {
  const problem = passwordProblem(body.password);
  if (problem) throw badField('password', problem);
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const userId = await consumePasswordReset(tx, hashToken(body.token));
    if (userId === null) throw badRequest(RESET_LINK_EXPIRED);
    await setPasswordHash(tx, userId, passwordHash);
    await deleteUserSessions(tx, userId);
    return userId;
  });
}

/**
 * A signed-in user's new password: the current one is checked and a wrong one counted like a
 * failed login (the same limits); every other session of the user ends, this one stays.
 */
export async function changePassword(
  db: Db,
  user: SessionUser,
  sessionTokenHash: string | null,
  body: ChangePasswordBody,
  ip: string,
  throttle: LoginThrottle,
): Promise<void> {
  const problem = passwordProblem(body.newPassword);
  if (problem) throw badField('newPassword', problem);
  const wait = await throttle.reserve(user.email, ip);
  if (wait > 0) throw tooManyFailedAttempts(wait);
  let ok: boolean;
  let row: Awaited<ReturnType<typeof findUserById>>;
  try {
    row = await findUserById(db, user.id);
    ok = row ? await verifyPassword(row.passwordHash, body.currentPassword) : false;
  } catch (err) {
    await throttle.release(user.email, ip).catch(() => undefined);
    throw err;
  }
  if (!row || !ok) throw badField('currentPassword', 'The current password is wrong');
  await throttle.recordSuccess(user.email, ip);
  await setPasswordHash(db, row.id, await hashPassword(body.newPassword));
  await deleteUserSessions(db, row.id, sessionTokenHash);
}
