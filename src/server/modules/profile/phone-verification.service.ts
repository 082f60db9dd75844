/**
 * Verifying the agent's phone (docs/domain.md, Follow-up messages and calls): a 6-digit code by
 * SMS to the number saved in the profile, good for 10 minutes and 5 tries; the number counts as
 * the agent's once the code comes back. Click-to-call rings only a verified phone (a number the
 * agent does not hold would make LeadFlow ring a stranger, or a premium line, on its account).
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { AppError, badField, conflict } from '../../lib/app-error';
import { notCallable } from '../../lib/callable-number';
import type { SmsSender } from '../../lib/sms-sender';
import { setPhoneVerified } from '../auth/auth.service';
import {
  insertPhoneCode,
  lockLatestPhoneCode,
  lockPhoneCodes,
  recentSends,
  recordTry,
} from './phone-codes.repository';
import { phoneOf } from './profile.repository';

export const PHONE_CODE_MINUTES = 10;
export const PHONE_CODE_TRIES = 5;
/** a new code at most once a minute, and 5 a day */
const RESEND_SECONDS = 60;
const SENDS_PER_DAY = 5;
const DAY_SECONDS = 24 * 60 * 60;

const hashCode = (userId: number, code: string) =>
  createHash('sha256').update(`${userId}:${code}`).digest('hex');

/** POST /api/agent/profile/phone/verify: sends a code to the agent's saved phone. */
export async function sendPhoneCode(
  db: Db,
  config: Pick<AppConfig, 'SERVED_COUNTRIES'>,
  sms: SmsSender | null,
  userId: number,
): Promise<{ phone: string; expiresAt: string }> {
  if (!sms) throw conflict('Text messages are not configured on this server');
  const row = await phoneOf(db, userId);
  const phone = row?.phone;
  if (!phone) throw conflict('Add your phone number first');
  const refused = notCallable(phone, config.SERVED_COUNTRIES);
  if (refused) throw conflict(refused);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // counted and stored under the user's lock, so that requests at once cannot pass the limits
  const stored = await db.transaction(async (tx) => {
    await lockPhoneCodes(tx, userId);
    const sent = await recentSends(tx, userId, DAY_SECONDS);
    if (sent.sinceLatest !== null && sent.sinceLatest < RESEND_SECONDS) {
      throw new AppError('TOO_MANY_REQUESTS', 'A code was just sent: wait a minute for another', {
        'retry-after': String(Math.ceil(RESEND_SECONDS - sent.sinceLatest)),
      });
    }
    if (sent.count >= SENDS_PER_DAY) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many codes today: try again tomorrow', {
        'retry-after': String(DAY_SECONDS),
      });
    }
    return insertPhoneCode(tx, {
      userId,
      phone,
      codeHash: hashCode(userId, code),
      validSeconds: PHONE_CODE_MINUTES * 60,
    });
  });
  try {
    await sms.send(
      phone,
      `Your LeadFlow code is ${code}. It expires in ${PHONE_CODE_MINUTES} minutes.`,
    );
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'The code could not be sent: try again in a moment');
  }
  return { phone, expiresAt: stored.expiresAt };
}

/**
 * POST /api/agent/profile/phone/confirm: the code sent last, for the phone saved now. A wrong code
 * spends a try; past 5 tries or 10 minutes, or once used, the agent asks for a new code.
 */
export async function confirmPhoneCode(db: Db, userId: number, code: string): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const latest = await lockLatestPhoneCode(tx, userId);
    const current = await phoneOf(tx, userId);
    if (!latest || latest.used || latest.phone !== current?.phone) return 'none' as const;
    if (latest.expired) return 'expired' as const;
    if (latest.tries >= PHONE_CODE_TRIES) return 'spent' as const;
    const given = Buffer.from(hashCode(userId, code));
    const right =
      given.length === latest.codeHash.length &&
      timingSafeEqual(given, Buffer.from(latest.codeHash));
    await recordTry(tx, latest.id, right);
    if (!right) return 'wrong' as const;
    await setPhoneVerified(tx, userId, latest.phone);
    return 'verified' as const;
  });
  switch (outcome) {
    case 'verified':
      return;
    case 'none':
      throw conflict('Ask for a code first');
    case 'expired':
      throw conflict('This code has expired: ask for a new one');
    case 'spent':
      throw new AppError('TOO_MANY_REQUESTS', 'Too many wrong codes: ask for a new one');
    case 'wrong':
      throw badField('code', 'That code is not right');
  }
}
