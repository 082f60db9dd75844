/**
 * npm run admin:create -- --email someone@agency.com [--name "Pat Admin"]
 * Password from ADMIN_PASSWORD, or generated and printed once. Uses DATABASE_URL or DATA_DIR
 * like the server (with PGlite, stop the server first: the data folder has one owner).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config/env';
import { migrateDatabase, openDatabase } from '../src/server/db/client';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { findUserByEmail, insertUser } from '../src/server/modules/auth/users.repository';

const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string', default: 'Administrator' } },
});
if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) {
  console.error('Usage: npm run admin:create -- --email admin@example.com [--name "Pat Admin"]');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrateDatabase(database);
  if (await findUserByEmail(database.db, values.email)) {
    console.error(`An account ${values.email} already exists.`);
    process.exitCode = 1;
  } else {
    const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    await insertUser(database.db, {
      name: values.name ?? 'Administrator',
      email: values.email,
      passwordHash: await hashPassword(password),
      role: 'ADMIN',
    });
    console.log(`Admin ${values.email} created.`);
    if (!config.ADMIN_PASSWORD) console.log(`Password (shown once): ${password}`);
  }
} finally {
  await database.close();
}
