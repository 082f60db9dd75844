import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { indexQueuedLeads } from '../modules/leads/leads.service';

/**
 * Leads indexed per step. A step is one transaction; on PGlite it also holds the only
 * connection, so it stays short there (requests run between steps).
 */
const STEP = { postgres: 20_000, pglite: 2_000 } as const;

export interface SearchIndexerLog {
  error(obj: object, msg: string): void;
}

/**
 * Catches the admin search up with large inserts (see lead_search in the schema): after each
 * import, and at start for whatever an earlier process left queued. One catch-up runs at a time
 * per process; processes share the queue (SKIP LOCKED).
 */
export class LeadSearchIndexer {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly log: SearchIndexerLog,
  ) {}

  /** Starts a catch-up in the background (or one more after the current one). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.catchUp()
      .then(() => undefined)
      .catch((err) => this.log.error({ err }, 'search index catch-up failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Indexes everything queued; answers the number of lead ids covered. */
  async catchUp(): Promise<number> {
    const step = STEP[this.database.kind];
    let total = 0;
    while (!this.closed) {
      const done = await indexQueuedLeads(this.database.db, step);
      if (done === 0) break;
      total += done;
      await yieldToEvents();
    }
    return total;
  }

  /** Stops after the current step (the rest stays queued for the next start). */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }
}

/**
 * The app's indexer: started when the app is ready (for what an earlier process left queued),
 * kicked after each import, stopped with the app.
 */
export function startLeadSearchIndexer(app: FastifyInstance): LeadSearchIndexer {
  const indexer = new LeadSearchIndexer(app.database, app.log);
  app.addHook('onReady', async () => indexer.kick());
  app.addHook('onClose', () => indexer.close());
  return indexer;
}
