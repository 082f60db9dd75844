import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app';
import { loadConfig } from './config/env';
import { migrateDatabase, openDatabase } from './db/client';
import { createLeadPorts } from './events/handlers';
import { NO_JOB_QUEUE } from './jobs/job-queue';
import { ensureFirstAdmin, firstAdminBox } from './modules/auth/bootstrap-admin';
import { seedDemo } from './modules/demo/seed-demo';

async function main() {
  const config = loadConfig();
  // the old generation's growth between full collections, bounded (decision 050): an import's
  // short-lived garbage is collected at about twice the live set instead of up to four times it
  if (config.HEAP_GROWING_PERCENT > 0)
    setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    readUrl: config.DATABASE_READ_URL,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  // once, by one process: the migrator holds a lock while it runs (docs/OPERATIONS.md)
  await migrateDatabase(database);
  const firstAdmin = await ensureFirstAdmin(database.db, {
    email: config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
    print: (line) => console.log(line),
  });
  if (process.argv.includes('--demo')) {
    // before the app and its queue: the demo's deliveries are recorded, the queue's sweeper
    // sends them once the app runs
    const { events } = createLeadPorts(config, NO_JOB_QUEUE);
    await seedDemo(database.db, config, events, (line) => console.log(line));
  }

  const app = await buildApp({
    config,
    database,
    logger: { level: config.LOG_LEVEL },
  });

  // SIGTERM (docs/OPERATIONS.md): stop accepting connections, let the requests in flight and the
  // running jobs finish (SHUTDOWN_GRACE_MS for the jobs; the process gives up a little later),
  // close the pool, exit 0
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error({ signal }, 'shutdown took too long: exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 5_000).unref();
    // a keep-alive connection whose request was in flight when closing began turns idle only
    // after its answer, and the server's close waits for it for ever: close such ones as they come
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    idle.unref();
    let code = 0;
    try {
      await app.close();
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      clearInterval(idle);
      clearTimeout(timer);
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
  console.log(
    `LeadFlow is running at http://${config.HOST}:${config.PORT} (database: ${where}, role: ${config.PROCESS_ROLE})`,
  );
  // requests naming any other host get 421 (DNS-rebinding defence): say which are served
  console.log(`Answering for hosts: ${config.ALLOWED_HOSTS.join(', ')} (ALLOWED_HOSTS)`);
  // last, so that it is not lost in the build's output above
  if (firstAdmin) {
    const url = `http://${config.HOST}:${config.PORT}/login`;
    for (const line of firstAdminBox(firstAdmin, url)) console.log(line);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
