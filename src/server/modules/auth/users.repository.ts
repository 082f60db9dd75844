import { eq, sql } from 'drizzle-orm';
import type { UserRole } from '../../../shared/domain';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

/** Inserts a user; null when the email is taken (the unique index decides, so races are safe). */
export async function insertUser(
  db: Db,
  values: { name: string; email: string; passwordHash: string; role: UserRole },
) {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email.toLowerCase() })
    .onConflictDoNothing()
    .returning({ id: users.id, name: users.name, email: users.email, role: users.role });
  return row ?? null;
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.role, 'ADMIN'));
  return row.n;
}
