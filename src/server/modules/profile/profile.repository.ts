import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

export async function phoneOf(
  db: Db,
  userId: number,
): Promise<{ phone: string | null; phoneVerified: boolean } | null> {
  const [row] = await db
    .select({ phone: users.phone, verifiedAt: users.phoneVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row
    ? { phone: row.phone, phoneVerified: row.phone !== null && row.verifiedAt !== null }
    : null;
}
