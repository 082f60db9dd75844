/** The agent's profile (docs/domain.md, Follow-up messages and calls): the phone click-to-call rings, E.164. */
import type { Profile } from '../../../shared/contracts/calls';
import { toE164 } from '../../../shared/phone';
import type { Db } from '../../db/client';
import { badField, notFound } from '../../lib/app-error';
import { setPhone } from '../auth/auth.service';
import { phoneOf } from './profile.repository';

export async function getProfile(db: Db, userId: number): Promise<Profile> {
  const row = await phoneOf(db, userId);
  if (!row) throw notFound('User');
  return { phone: row.phone };
}

/** Any common US form or E.164 is accepted and kept as E.164; empty or null clears it. */
export async function updateProfile(
  db: Db,
  userId: number,
  body: { phone: string | null },
): Promise<Profile> {
  const raw = body.phone?.trim() ?? '';
  const phone = raw === '' ? null : toE164(raw);
  if (raw !== '' && !phone)
    throw badField('phone', 'Enter a valid phone number, like (305) 555-0123 or +13055550123');
  await setPhone(db, userId, phone);
  return { phone };
}
