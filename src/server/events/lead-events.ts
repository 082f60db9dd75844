/**
 * The leads' events (docs/decisions/023-events-and-job-registry.md): a small typed bus. Whoever
 * assigns leads emits `leadsAssigned` once, inside its own transaction; the handlers (bell
 * notifications and live events, deliveries, follow-ups: registered by events/handlers.ts at app
 * start) run in their order in that same transaction, so what they write commits or rolls back
 * with the assignment. A handler that throws rolls the assignment back.
 *
 * One bus per app (or script, or bench), passed to the emitters like any other port: never a
 * module-level global.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryPreparedRows } from '../db/client';

/** Which leads an assignment just gave out: a run's, or named leads (manual, intake). */
export type AssignedLeads = { runId: number } | { leadIds: number[] };

/** Every event's name and payload. */
export interface LeadEventPayloads {
  /** leads were given to agents (by a run of any trigger, an admin, the intake) */
  leadsAssigned: AssignedLeads;
}

export type LeadEventName = keyof LeadEventPayloads;

/** A handler: runs in the emitter's transaction `tx`, awaited before the next one. */
export type LeadEventHandler<N extends LeadEventName> = (
  tx: Db,
  payload: LeadEventPayloads[N],
) => Promise<void>;

/**
 * What a handler reads of the event before it writes anything (who has a device, which leads an
 * agency may take back): a read-only statement, or null when this payload needs none of it (the
 * handler then reads for itself, if at all). Every handler's read of one emit is asked in ONE
 * statement, before the first handler runs; a read therefore sees the assignment, never what an
 * earlier handler wrote.
 */
export type LeadEventRead<N extends LeadEventName> = (payload: LeadEventPayloads[N]) => SQL | null;

/** A handler given the rows of its read (undefined when its read answered null). */
export type LeadEventReadHandler<N extends LeadEventName, R> = (
  tx: Db,
  payload: LeadEventPayloads[N],
  rows: R[] | undefined,
) => Promise<void>;

export interface LeadEvents {
  /** Adds a handler; handlers run in the order they were added. */
  on<N extends LeadEventName>(name: N, handler: LeadEventHandler<N>): void;
  /** Adds a handler whose read is asked with the other handlers' reads, in one statement. */
  onRead<N extends LeadEventName, R>(
    name: N,
    read: LeadEventRead<N>,
    handler: LeadEventReadHandler<N, R>,
  ): void;
  /** Runs the event's handlers one after another in `tx`; the first error is thrown. */
  emit<N extends LeadEventName>(tx: Db, name: N, payload: LeadEventPayloads[N]): Promise<void>;
}

interface Registered<N extends LeadEventName> {
  read: LeadEventRead<N> | null;
  handler: LeadEventReadHandler<N, unknown>;
}

export function createLeadEvents(): LeadEvents {
  const handlers: { [N in LeadEventName]: Registered<N>[] } = { leadsAssigned: [] };
  return {
    on(name, handler) {
      handlers[name].push({ read: null, handler: (tx, payload) => handler(tx, payload) });
    },
    onRead(name, read, handler) {
      handlers[name].push({ read, handler: handler as LeadEventReadHandler<typeof name, unknown> });
    },
    async emit(tx, name, payload) {
      const list = handlers[name];
      const rows = await readAll(
        tx,
        list.map((h) => h.read?.(payload) ?? null),
      );
      for (const [i, { handler }] of list.entries()) await handler(tx, payload, rows[i]);
    },
  };
}

/** The handlers' reads as one statement: each read's rows as a JSON array, in its own column. */
async function readAll(tx: Db, reads: (SQL | null)[]): Promise<(unknown[] | undefined)[]> {
  const asked = reads.flatMap((read, i) =>
    read
      ? [
          sql`(select coalesce(json_agg(r), '[]'::json) from (${read}) r) as ${sql.identifier(`r${i}`)}`,
        ]
      : [],
  );
  if (asked.length === 0) return reads.map(() => undefined);
  const [row] = await queryPreparedRows<Record<string, unknown[]>>(
    tx,
    sql`select ${sql.join(asked, sql`, `)}`,
  );
  return reads.map((read, i) => (read ? row[`r${i}`] : undefined));
}
