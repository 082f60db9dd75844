/**
 * The agent's profile (docs/domain.md, Follow-up messages and calls): the phone click-to-call
 * rings, E.164, and whether the agent verified it (phone-verification.service.ts).
 */
import type { Profile } from '../../../shared/contracts/calls';
import { toE164 } from '../../../shared/phone';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import { badField, notFound } from '../../lib/app-error';
import { notCallable } from '../../lib/callable-number';
import { setPhone } from '../auth/auth.service';
import { phoneOf } from './profile.repository';

export async function getProfile(db: Db, userId: number): Promise<Profile> {
  const row = await phoneOf(db, userId);
  if (!row) throw notFound('User');
  return row;
}

/**
 * Any common US form or E.164 is accepted and kept as E.164; empty or null clears it. Only a
 * number LeadFlow may ring (a line of a served country, no premium or special number); a new
 * number must be verified again.
 */
export async function updateProfile(
  db: Db,
  config: Pick<AppConfig, 'SERVED_COUNTRIES'>,
  userId: number,
  body: { phone: string | null },
): Promise<Profile> {
  const raw = body.phone?.trim() ?? '';
  const phone = raw === '' ? null : toE164(raw);
  if (raw !== '' && !phone)
    throw badField('phone', 'Enter a valid phone number, like (305) 555-0123 or +13055550123');
  const refused = phone ? notCallable(phone, config.SERVED_COUNTRIES) : null;
  if (refused) throw badField('phone', refused);
  await setPhone(db, userId, phone);
  return getProfile(db, userId);
}
