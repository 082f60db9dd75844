import type { FastifyInstance } from 'fastify';
import { settleAbandonedImports } from '../modules/imports/imports.service';

/**
 * Imports a crashed process left RUNNING are settled as FAILED when the app starts (and again
 * before each import). A database that is down now must not keep the app from starting.
 */
export function settleAbandonedImportsAtStart(app: FastifyInstance): void {
  app.addHook('onReady', async () => {
    await settleAbandonedImports(app.database).catch((err: unknown) =>
      app.log.warn({ err }, 'could not settle abandoned imports at start'),
    );
  });
}
