import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { hashPassword } from './passwords';
import { countAdmins, insertUser } from './users.repository';

export const DEFAULT_ADMIN_EMAIL = 'admin@leadflow.local';

/**
 * The first admin, on first start only: from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated
 * password that is printed once (it is never stored in clear or logged again).
 */
export async function ensureFirstAdmin(
  db: Db,
  opts: { email?: string; password?: string; print: (line: string) => void },
): Promise<void> {
  if ((await countAdmins(db)) > 0) return;
  const email = (opts.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const password = opts.password ?? randomBytes(12).toString('base64url');
  const created = await insertUser(db, {
    name: 'Administrator',
    email,
    passwordHash: await hashPassword(password),
    role: 'ADMIN',
  });
  if (!created) {
    opts.print(`An account ${email} already exists and is not an admin; run npm run admin:create.`);
    return;
  }
  opts.print('');
  opts.print('  First admin created.');
  opts.print(`    email:    ${email}`);
  opts.print(opts.password ? '    password: (ADMIN_PASSWORD)' : `    password: ${password}`);
  if (!opts.password) opts.print('  This password is shown once; write it down.');
  opts.print('');
}
