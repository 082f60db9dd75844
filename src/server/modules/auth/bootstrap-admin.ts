import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { hashPassword } from './passwords';
import { countAdmins, insertUser } from './users.repository';

export const DEFAULT_ADMIN_EMAIL = 'admin@leadflow.local';

/** The first admin just created: what the person starting the server must be told. */
export interface FirstAdmin {
  email: string;
  /** the generated password, shown this once; null when it came from ADMIN_PASSWORD */
  password: string | null;
}

/**
 * The first admin, on first start only: from ADMIN_EMAIL / ADMIN_PASSWORD, or with a generated
 * password that the caller prints once (it is never stored in clear or logged). Null when an
 * admin exists already, or `print` told why none could be made.
 */
export async function ensureFirstAdmin(
  db: Db,
  opts: { email?: string; password?: string; print: (line: string) => void },
): Promise<FirstAdmin | null> {
  if ((await countAdmins(db)) > 0) return null;
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
    return null;
  }
  return { email, password: opts.password ? null : password };
}

/** The first admin's sign-in, in a box that stands out at the end of the start's output. */
export function firstAdminBox(admin: FirstAdmin, loginUrl: string): string[] {
  const lines = [
    'First admin created. Log in at:',
    `  ${loginUrl}`,
    `  email:    ${admin.email}`,
    admin.password ? `  password: ${admin.password}` : '  password: the one in ADMIN_PASSWORD',
    ...(admin.password ? ['This password is shown once: write it down now.'] : []),
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return ['', rule, ...lines.map((l) => `| ${l.padEnd(width)} |`), rule, ''];
}
