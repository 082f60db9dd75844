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
import type { Db } from '../db/client';

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

export interface LeadEvents {
  /** Adds a handler; handlers run in the order they were added. */
  on<N extends LeadEventName>(name: N, handler: LeadEventHandler<N>): void;
  /** Runs the event's handlers one after another in `tx`; the first error is thrown. */
  emit<N extends LeadEventName>(tx: Db, name: N, payload: LeadEventPayloads[N]): Promise<void>;
}

export function createLeadEvents(): LeadEvents {
  const handlers: { [N in LeadEventName]: LeadEventHandler<N>[] } = { leadsAssigned: [] };
  return {
    on(name, handler) {
      handlers[name].push(handler);
    },
    async emit(tx, name, payload) {
      for (const handler of handlers[name]) await handler(tx, payload);
    },
  };
}
