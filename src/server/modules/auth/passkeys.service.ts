/**
 * Passkeys (docs/domain.md, Accounts: two factors; decision 036): WebAuthn credentials by
 * @simplewebauthn/server. A passkey is registered by a signed-in user, is a second factor after
 * the password, and signs in alone from the login page (a usernameless, discoverable credential
 * with user verification: possession and a PIN or biometric, two factors in one). Challenges are
 * kept in the database, taken once; the origin and RP ID come from PUBLIC_URL and are checked
 * exactly. An admin's reset of a lost second factor is here too.
 */
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { sql } from 'drizzle-orm';
import {
  NOT_APPROVED_MESSAGE,
  type PasskeyAssertion,
  type PasskeyItem,
  type PasskeyRegisterBody,
} from '../../../shared/contracts/auth';
import type { Db } from '../../db/client';
import { userPasskeys } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import type { SessionUser } from '../../types';
import { refuseWhenSpent, takeHit } from '../rate-limits/rate-limits.service';
import { ACCOUNT_DISABLED } from './auth.service';
import {
  countPasskeys,
  deletePasskey,
  findPasskeyByCredentialId,
  findPasskeysOfUser,
  insertChallenge,
  insertPasskey,
  type PasskeyRow,
  renamePasskey,
  takeChallenge,
  takeCounter,
} from './passkeys.repository';
import { createSession, deleteUserSessions, type SessionPolicy } from './sessions.repository';
import {
  deleteAllSecondFactors,
  findTotp,
  completePendingLogin as finishPendingLogin,
  pendingLoginOf,
} from './two-factor.service';
import { findUserById } from './users.repository';

export const RP_NAME = 'LeadFlow';
/** how long a challenge may be answered */
export const CHALLENGE_MS = 5 * 60_000;
/** what the browser is told it has to answer (it stops waiting after this) */
const CEREMONY_TIMEOUT_MS = 2 * 60_000;
/**
 * Failed assertions per 15 minutes, counted in the database under the same keys as code attempts
 * (docs/domain.md, Accounts: two factors), so passkeys and codes share one budget.
 */
export const PASSKEY_LIMITS = {
  perAccount: { limit: 5, windowSeconds: 15 * 60 },
  perAddress: { limit: 30, windowSeconds: 15 * 60 },
};
export const TOO_MANY_ATTEMPTS = 'Too many attempts with codes. Try again in 15 minutes.';
export const PASSKEY_REFUSED = 'This passkey could not be verified';
export const LAST_FACTOR =
  'This is your last second factor: confirm with this passkey to remove it';

export type ChallengePurpose = 'register' | 'confirm' | 'second_factor' | 'login';

/** Where the portal is reached: the RP ID (its host name) and the one origin answers must name. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { rpID: url.hostname.replace(/^\[|\]$/g, ''), origin: url.origin };
}

function toItem(row: PasskeyRow): PasskeyItem {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyItem[]> {
  return (await findPasskeysOfUser(db, userId)).map(toItem);
}

async function newChallenge(
  db: Db,
  purpose: ChallengePurpose,
  userId: number | null,
  userHandle: string | null = null,
): Promise<string> {
  const challenge = isoBase64URL.fromBuffer(randomBytes(32));
  await insertChallenge(db, {
    challenge,
    purpose,
    userId,
    userHandle,
    expiresAt: new Date(Date.now() + CHALLENGE_MS),
  });
  return challenge;
}

/** The challenge an answer carries (in its clientDataJSON); 400 when it carries none. */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    if (typeof data.challenge === 'string' && data.challenge.length <= 512) return data.challenge;
  } catch {
    // refused below
  }
  throw badRequest(PASSKEY_REFUSED);
}

const allowOf = (rows: PasskeyRow[]) =>
  rows.map((r) => ({ id: r.credentialId, transports: r.transports }));

/**
 * Options for a new passkey of the signed-in user: a discoverable credential (so that it can
 * sign in without an email) with user verification, none of the user's passkeys again.
 */
export async function registrationOptions(db: Db, rp: RelyingParty, user: SessionUser) {
  const existing = await findPasskeysOfUser(db, user.id);
  // one user handle per user: every passkey of the user carries the same
  const userHandle = existing[0]?.userHandle ?? isoBase64URL.fromBuffer(randomBytes(32));
  const challenge = await newChallenge(db, 'register', user.id, userHandle);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: isoBase64URL.toBuffer(userHandle),
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: allowOf(existing),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { ...options };
}

/** Verifies the browser's answer to the registration options and keeps the new passkey. */
export async function registerPasskey(
  db: Db,
  rp: RelyingParty,
  user: SessionUser,
  body: PasskeyRegisterBody,
): Promise<PasskeyItem> {
  const challenge = challengeOf(body.response.response.clientDataJSON);
  const taken = await takeChallenge(db, challenge, 'register', user.id);
  if (!taken?.userHandle) throw badRequest(PASSKEY_REFUSED);
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response: body.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
    info = verified.verified ? verified.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw badRequest(PASSKEY_REFUSED);
  const row = await insertPasskey(db, {
    userId: user.id,
    credentialId: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: body.response.response.transports ?? info.credential.transports ?? [],
    userHandle: taken.userHandle,
    name: body.name,
  });
  if (!row) throw conflict('This passkey is already registered');
  return toItem(row);
}

/**
 * Options for an assertion: of the user's own passkeys (the second step after the password, a
 * confirmation before removing the last factor), or of any passkey (the usernameless sign-in).
 */
export async function authenticationOptions(
  db: Db,
  rp: RelyingParty,
  purpose: Exclude<ChallengePurpose, 'register'>,
  userId: number | null,
) {
  const rows = userId === null ? [] : await findPasskeysOfUser(db, userId);
  if (userId !== null && rows.length === 0) throw conflict('You have no passkey');
  const challenge = await newChallenge(db, purpose, userId);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: isoBase64URL.toBuffer(challenge),
    timeout: CEREMONY_TIMEOUT_MS,
    // alone, a passkey is both factors only with user verification
    userVerification: purpose === 'login' ? 'required' : 'preferred',
    ...(rows.length > 0 ? { allowCredentials: allowOf(rows) } : {}),
  });
  return { ...options };
}

const accountKey = (userId: number) => `2fa:u:${userId}`;
const addressKey = (ip: string) => `2fa:a:${clientKey(ip)}`;

/**
 * Checks an assertion for `purpose` (of `userId`'s passkeys, or of anyone's for the usernameless
 * sign-in): its challenge taken once, the credential known and the user's, the origin and RP ID
 * exact, the signature, user verification for a sign-in alone, and a counter that grew (or stays
 * 0 on an authenticator without one). Answers the passkey. Every failure counts against the
 * account (when known) and the address; past their limit, 429 before any check.
 */
export async function checkAssertion(
  db: Db,
  rp: RelyingParty,
  response: PasskeyAssertion,
  purpose: Exclude<ChallengePurpose, 'register'>,
  userId: number | null,
  ip: string,
): Promise<PasskeyRow> {
  await refuseWhenSpent(db, addressKey(ip), PASSKEY_LIMITS.perAddress, TOO_MANY_ATTEMPTS);
  if (userId !== null) {
    await refuseWhenSpent(db, accountKey(userId), PASSKEY_LIMITS.perAccount, TOO_MANY_ATTEMPTS);
  }
  const passkey = await findPasskeyByCredentialId(db, response.id);
  const owner = userId ?? passkey?.userId ?? null;
  const fail = async (): Promise<never> => {
    await takeHit(db, addressKey(ip), PASSKEY_LIMITS.perAddress, TOO_MANY_ATTEMPTS);
    if (owner !== null) {
      await takeHit(db, accountKey(owner), PASSKEY_LIMITS.perAccount, TOO_MANY_ATTEMPTS);
    }
    throw badRequest(PASSKEY_REFUSED);
  };
  let challenge: string;
  try {
    challenge = challengeOf(response.response.clientDataJSON);
  } catch {
    return fail();
  }
  if (userId === null && passkey) {
    await refuseWhenSpent(
      db,
      accountKey(passkey.userId),
      PASSKEY_LIMITS.perAccount,
      TOO_MANY_ATTEMPTS,
    );
  }
  // the challenge goes whatever follows: an answer is checked once
  if (!(await takeChallenge(db, challenge, purpose, userId))) return fail();
  if (!passkey || (userId !== null && passkey.userId !== userId)) return fail();
  const signIn = purpose === 'login';
  // a sign-in alone names its user by the handle the passkey was made with
  if (signIn && response.response.userHandle !== passkey.userHandle) return fail();
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: signIn,
    });
    if (!verified.verified) return fail();
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    return fail();
  }
  // the counter rule (decision 036): taken only if it grew since it was read
  if (!(await takeCounter(db, passkey.id, passkey.counter, newCounter))) return fail();
  return passkey;
}

/** The login's second step by a passkey: the pending login's user's own; a session. */
export async function verifyPendingLoginByPasskey(
  db: Db,
  rp: RelyingParty,
  pendingToken: string | undefined,
  response: PasskeyAssertion,
  ip: string,
  policy: SessionPolicy,
) {
  const pending = await pendingLoginOf(db, pendingToken);
  await checkAssertion(db, rp, response, 'second_factor', pending.userId, ip);
  return finishPendingLogin(db, pending, policy);
}

/** Options for the login's second step: the pending login's user's passkeys. */
export async function pendingLoginOptions(
  db: Db,
  rp: RelyingParty,
  pendingToken: string | undefined,
) {
  const pending = await pendingLoginOf(db, pendingToken);
  return authenticationOptions(db, rp, 'second_factor', pending.userId);
}

/**
 * "Sign in with a passkey": no email, no password, the passkey names its user. A disabled or
 * refused account is refused as at login (403); otherwise a session.
 */
export async function signInWithPasskey(
  db: Db,
  rp: RelyingParty,
  response: PasskeyAssertion,
  ip: string,
  policy: SessionPolicy,
): Promise<{ user: SessionUser; token: string }> {
  const passkey = await checkAssertion(db, rp, response, 'login', null, ip);
  const row = await findUserById(db, passkey.userId);
  if (!row) throw badRequest(PASSKEY_REFUSED);
  if (row.approval === 'REFUSED') throw new AppError('FORBIDDEN', NOT_APPROVED_MESSAGE.REFUSED);
  if (row.disabledAt !== null) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED);
  const token = await createSession(db, row.id, policy);
  const { id, name, email, role, approval } = row;
  return { user: { id, name, email, role, approval }, token };
}

export async function renameOwnPasskey(db: Db, userId: number, id: number, name: string) {
  const row = await renamePasskey(db, userId, id, name);
  if (!row) throw notFound('Passkey');
  return toItem(row);
}

/**
 * Removes one of the user's passkeys. When it is the last second factor (no TOTP, no other
 * passkey), a fresh assertion of one of the user's passkeys must come with it, as turning TOTP off
 * needs a code. The user's passkey rows are locked first: two removals at once cannot both find
 * another one left.
 */
export async function removeOwnPasskey(
  db: Db,
  rp: RelyingParty,
  userId: number,
  id: number,
  confirmation: PasskeyAssertion | undefined,
  ip: string,
): Promise<void> {
  const mine = await findPasskeysOfUser(db, userId);
  if (!mine.some((p) => p.id === id)) throw notFound('Passkey');
  const confirmed = confirmation
    ? Boolean(await checkAssertion(db, rp, confirmation, 'confirm', userId, ip))
    : false;
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`select 1 from ${userPasskeys} where ${userPasskeys.userId} = ${userId} for update`,
    );
    const totpOn = Boolean((await findTotp(tx, userId))?.enabledAt);
    const left = await countPasskeys(tx, userId);
    if (!totpOn && left <= 1 && !confirmed) throw badRequest(LAST_FACTOR);
    if (!(await deletePasskey(tx, userId, id))) throw notFound('Passkey');
  });
}

/**
 * An admin's reset of a user's lost second factor: TOTP, recovery codes and passkeys removed,
 * every session of the user ended, in one transaction. Not of the admin's own account (they turn
 * theirs off on their Account screen, with a code or passkey). Answers what was removed.
 */
export async function resetSecondFactors(
  db: Db,
  input: { adminId: number; userId: number },
): Promise<{ totp: boolean; passkeys: number }> {
  if (input.adminId === input.userId) {
    throw new AppError(
      'FORBIDDEN',
      'You cannot reset your own second factor: turn it off on your Account screen',
    );
  }
  return db.transaction(async (tx) => {
    const user = await findUserById(tx, input.userId);
    if (!user) throw notFound('User');
    const removed = await deleteAllSecondFactors(tx, input.userId);
    await deleteUserSessions(tx, input.userId);
    return removed;
  });
}
