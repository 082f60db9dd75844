/**
 * Two-factor authentication by TOTP (docs/domain.md, Accounts: two factors; decision 034): the
 * setup (a pending secret confirmed by a code), ten recovery codes, the login's second step (a
 * pending login kept server-side behind an httpOnly cookie), turning it off with a code.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import type { SessionUser } from '../../types';
import { takeHit } from '../rate-limits/rate-limits.service';
import { countPasskeys, deleteChallengesOfUser, deletePasskeysOfUser } from './passkeys.repository';
import { createSession, hashToken, type SessionPolicy } from './sessions.repository';
import {
  countUnusedRecoveryCodes,
  deletePendingLogin,
  deletePendingLoginsOfUser,
  deleteTwoFactor,
  findPendingLogin,
  findTotp,
  insertPendingLogin,
  replaceRecoveryCodes,
  takeRecoveryCode,
  takeTimeStep,
  writePendingSecret,
} from './two-factor.repository';
import { findUserById } from './users.repository';

export { TWO_FACTOR_SETUP_REQUIRED } from '../../../shared/contracts/auth';
export { findTotp } from './two-factor.repository';

export const TOTP_ISSUER = 'LeadFlow';
/** how long the code step of a login waits after the right password */
export const PENDING_LOGIN_MS = 5 * 60_000;
export const RECOVERY_CODE_COUNT = 10;
/**
 * Code attempts (right or wrong) per 15 minutes, counted in the database so every process shares
 * them: per account (the guesser's cap) and per client address (spraying over accounts).
 */
export const CODE_LIMITS = {
  perAccount: { limit: 5, windowSeconds: 15 * 60 },
  perAddress: { limit: 30, windowSeconds: 15 * 60 },
};
export const TOO_MANY_CODES = 'Too many attempts with codes. Try again in 15 minutes.';
export const WRONG_CODE = 'This code is not valid';

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code's stored form: SHA-256 of its letters, without the dash, lower case. */
function recoveryHash(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('base64url');
}

export async function twoFactorStatus(db: Db, userId: number) {
  const totp = await findTotp(db, userId);
  const enabled = Boolean(totp?.enabledAt);
  return {
    enabled,
    recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(db, userId) : 0,
    passkeys: await countPasskeys(db, userId),
  };
}

/** The second factors a user has: the authenticator app (with its recovery codes), passkeys. */
export async function secondFactors(db: Db, userId: number) {
  const [totp, passkeys] = await Promise.all([findTotp(db, userId), countPasskeys(db, userId)]);
  return { totp: Boolean(totp?.enabledAt), passkey: passkeys > 0 };
}

/** Two factors are on: TOTP is on, or the user has a passkey (decision 036). */
export async function isTwoFactorOn(db: Db, userId: number): Promise<boolean> {
  const factors = await secondFactors(db, userId);
  return factors.totp || factors.passkey;
}

/** A new pending secret: shown in this answer only; 409 once TOTP is on. */
export async function setupTotp(db: Db, user: SessionUser) {
  const secret = generateSecret();
  if (!(await writePendingSecret(db, user.id, secret))) {
    throw conflict('Two-factor authentication is already on');
  }
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 });
  return { secret, otpauthUrl, qrSvg };
}

async function throttleCode(db: Db, userId: number, ip: string) {
  await takeHit(db, `2fa:u:${userId}`, CODE_LIMITS.perAccount, TOO_MANY_CODES);
  await takeHit(db, `2fa:a:${clientKey(ip)}`, CODE_LIMITS.perAddress, TOO_MANY_CODES);
}

/**
 * Checks a current TOTP code (not one already accepted: replay) or, when allowed, an unused
 * recovery code (used up by this check). Counted against the code limits before it is checked.
 */
async function checkCode(
  db: Db,
  userId: number,
  code: string,
  ip: string,
  mode: { enable: boolean; recovery: boolean },
): Promise<boolean> {
  await throttleCode(db, userId, ip);
  const totp = await findTotp(db, userId);
  if (!totp || Boolean(totp.enabledAt) === mode.enable) return false;
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const result = await verify({
      secret: totp.secret,
      token: digits,
      epochTolerance: 30,
      ...(totp.lastTimeStep === null ? {} : { afterTimeStep: totp.lastTimeStep }),
    });
    if (!result.valid || !('timeStep' in result)) return false;
    return takeTimeStep(db, userId, result.timeStep, mode.enable);
  }
  if (!mode.recovery) return false;
  return takeRecoveryCode(db, userId, recoveryHash(code));
}

/** Turns TOTP on with a code of the pending secret; answers the ten recovery codes, once. */
export async function enableTotp(db: Db, userId: number, code: string, ip: string) {
  const totp = await findTotp(db, userId);
  if (totp?.enabledAt) throw conflict('Two-factor authentication is already on');
  if (!totp) throw conflict('Start the setup first');
  if (!(await checkCode(db, userId, code, ip, { enable: true, recovery: false }))) {
    throw badRequest(WRONG_CODE);
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(db, userId, codes.map(recoveryHash));
  return { recoveryCodes: codes };
}

/**
 * Turns the authenticator app off (and its recovery codes): needs a current code or a recovery
 * code. The user's passkeys stay; answers whether any does (two factors are then still on).
 */
export async function disableTwoFactor(db: Db, userId: number, code: string, ip: string) {
  if (!(await findTotp(db, userId))?.enabledAt) {
    throw conflict(
      (await countPasskeys(db, userId)) > 0
        ? 'The authenticator app is off'
        : 'Two-factor authentication is off',
    );
  }
  if (!(await checkCode(db, userId, code, ip, { enable: false, recovery: true }))) {
    throw badRequest(WRONG_CODE);
  }
  await deleteTwoFactor(db, userId);
  return { passkeysLeft: await countPasskeys(db, userId) };
}

/** The right password of a user with two factors on: a pending login, its token for the cookie. */
export async function startPendingLogin(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertPendingLogin(db, {
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + PENDING_LOGIN_MS),
  });
  return token;
}

/** no pending login behind the cookie (none, lapsed or used): the 401 of every session check */
export const LOGIN_EXPIRED = 'Not authenticated';

/** The login's second step: a code for the pending login; the session's token and its user. */
export async function verifyPendingLogin(
  db: Db,
  pendingToken: string | undefined,
  code: string,
  ip: string,
  policy: SessionPolicy,
): Promise<{ user: SessionUser; token: string }> {
  const pending = await pendingLoginOf(db, pendingToken);
  if (!(await checkCode(db, pending.userId, code, ip, { enable: false, recovery: true }))) {
    throw badRequest(WRONG_CODE);
  }
  return completePendingLogin(db, pending, policy);
}

/** The live pending login behind the cookie's token: 401 when none (none, lapsed or used). */
export async function pendingLoginOf(
  db: Db,
  pendingToken: string | undefined,
): Promise<{ tokenHash: string; userId: number }> {
  const tokenHash = hashToken(pendingToken ?? '');
  const pending = pendingToken ? await findPendingLogin(db, tokenHash) : null;
  if (!pending) throw new AppError('UNAUTHORIZED', LOGIN_EXPIRED);
  return { tokenHash, userId: pending.userId };
}

/** The second factor was right: the pending login ends (once) and a session begins. */
export async function completePendingLogin(
  db: Db,
  pending: { tokenHash: string; userId: number },
  policy: SessionPolicy,
): Promise<{ user: SessionUser; token: string }> {
  // used once: of two parallel right answers, one gets the session
  if (!(await deletePendingLogin(db, pending.tokenHash))) {
    throw new AppError('UNAUTHORIZED', LOGIN_EXPIRED);
  }
  const row = await findUserById(db, pending.userId);
  if (!row || row.disabledAt !== null) throw new AppError('UNAUTHORIZED', LOGIN_EXPIRED);
  const token = await createSession(db, row.id, policy);
  const { id, name, email, role, approval } = row;
  return { user: { id, name, email, role, approval }, token };
}

/**
 * Every second factor of the user gone (an admin's reset: docs/domain.md, Accounts): TOTP and its
 * recovery codes, passkeys, and any login waiting for its second step. Answers what there was.
 */
export async function deleteAllSecondFactors(
  db: Db,
  userId: number,
): Promise<{ totp: boolean; passkeys: number }> {
  const totp = Boolean((await findTotp(db, userId))?.enabledAt);
  await deleteTwoFactor(db, userId);
  const passkeys = await deletePasskeysOfUser(db, userId);
  await deletePendingLoginsOfUser(db, userId);
  await deleteChallengesOfUser(db, userId);
  return { totp, passkeys };
}
