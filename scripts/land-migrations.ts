// Records in drizzle/landed.sha256 the migrations that land with this change: every journal entry
// after the last landed one (decision 013). Run it in the commit that lands them:
//   npx tsx scripts/land-migrations.ts
// It never rewrites a line: a landed migration that changed is reported and nothing is written.
import { appendFileSync } from 'node:fs';
import { MIGRATIONS_DIR } from '../src/server/db/client';
import {
  LANDED_FILE,
  landedLine,
  landedProblems,
  migrationSha256,
  readJournal,
  readLanded,
} from '../src/server/db/landed-migrations';

const problems = landedProblems();
if (problems.length > 0) {
  console.error(`drizzle/${LANDED_FILE} and drizzle/ disagree:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const landed = readLanded();
const fresh = readJournal().slice(landed.length);
for (const entry of fresh) {
  const sha256 = migrationSha256(entry.tag);
  if (!sha256) throw new Error(`drizzle/${entry.tag}.sql is missing`);
  appendFileSync(`${MIGRATIONS_DIR}/${LANDED_FILE}`, `${landedLine({ sha256, entry })}\n`);
  console.log(`landed ${entry.tag}`);
}
if (fresh.length === 0) console.log('every migration has landed already');
