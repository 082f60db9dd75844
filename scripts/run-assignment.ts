/**
 * npm run assign:run [-- --schedule]
 * Runs the assignment engine once, like the admin's 'Run assignment now' (trigger MANUAL), or,
 * with --schedule, makes today's scheduled run unless some process already made it (trigger
 * SCHEDULE, once per business date). Prints the run record as one JSON line, or 'skipped'.
 * Uses DATABASE_URL or DATA_DIR like the server (with PGlite, stop the server first).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config/env';
import { migrateDatabase, openDatabase } from '../src/server/db/client';
import { createLeadPorts } from '../src/server/events/handlers';
import { NO_JOB_QUEUE } from '../src/server/jobs/job-queue';
import { runAssignment } from '../src/server/modules/assignment/run-assignment.service';

const { values } = parseArgs({ options: { schedule: { type: 'boolean', default: false } } });
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  poolSize: 2,
});
try {
  await migrateDatabase(database);
  const run = await runAssignment(database.db, config, {
    trigger: values.schedule ? 'SCHEDULE' : 'MANUAL',
    // no queue in this process: the run's notifications are written and its deliveries recorded;
    // a server's sweeper fans them out and sends them
    events: createLeadPorts(config, NO_JOB_QUEUE).events,
  });
  if (!run) {
    console.log('skipped: the scheduled run of this business date was already made');
  } else {
    console.log(JSON.stringify(run));
    if (run.error) process.exitCode = 1;
  }
} finally {
  await database.close();
}
