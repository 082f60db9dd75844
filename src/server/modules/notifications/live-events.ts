/**
 * One listener per app process (docs/domain.md, Delivery of assigned leads): it LISTENs on the
 * `lead_assigned` channel and hands each message to the event streams of that agent open in this
 * process, and on `live_streams_end`, where a session's end (the trigger on `sessions`) or an
 * admin's change of the agent's status ends their streams. Any process may assign a lead or end a
 * session, and any process may hold the agent's stream: PostgreSQL carries the message between
 * them, in commit order on the one connection, so a lead assigned after a logout never reaches
 * the streams that logout ended. On PostgreSQL the listener is a connection of its own (a
 * pooled one would lose its LISTEN when given back), reconnected with backoff when it drops; on
 * PGlite, which is one process, it is the engine's own `listen`.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { type LeadAssignedEvent, leadAssignedEvent } from '../../../shared/contracts/delivery';
import type { Database } from '../../db/client';
import {
  LEAD_ASSIGNED_CHANNEL,
  LEADS_CHANGED_CHANNEL,
  STREAMS_END_CHANNEL,
} from './notifications.repository';

/**
 * `lead.assigned`: leads were given to this agent. `resync`: the listener was disconnected for a
 * while, and what was assigned meanwhile was not announced: the page refreshes what it shows.
 */
export type LiveEvent =
  | { type: 'lead.assigned'; data: LeadAssignedEvent }
  | { type: 'resync'; data: object };

/** The listener's connection, by this name in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'leadflow-live-events';

type Subscriber = {
  /** the hash of the session token the stream was opened with */
  session: string;
  send(event: LiveEvent): void;
  /** ends the stream (its session ended, the agent's status changed, the app is closing) */
  end(): void;
};

export interface LiveEvents {
  /** Registers a stream of this user; the returned function removes it. */
  subscribe(userId: number, subscriber: Subscriber): () => void;
  /** How many streams this user has open in this process. */
  streamsOf(userId: number): number;
  /** Ends every open stream (before the server waits for its connections to close). */
  endStreams(): void;
  /** Stops listening. */
  close(): Promise<void>;
}

const payloadSchema = leadAssignedEvent.extend({ userId: leadAssignedEvent.shape.leadId });
/** A user's streams end: those of one session when it is named, else all of them. */
const streamsEndSchema = z.object({
  userId: leadAssignedEvent.shape.leadId,
  session: z.string().optional(),
});

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/** Starts listening; resolves once the first LISTEN is in place (or its first attempt failed). */
export async function startLiveEvents(
  database: Database,
  log: FastifyBaseLogger,
): Promise<LiveEvents> {
  const streams = new Map<number, Set<Subscriber>>();

  const deliver = (payload: string | undefined) => {
    if (!payload) return;
    let parsed: ReturnType<typeof payloadSchema.parse>;
    try {
      parsed = payloadSchema.parse(JSON.parse(payload));
    } catch (err) {
      log.warn({ err }, 'live events: a message that is not lead.assigned');
      return;
    }
    const subscribers = streams.get(parsed.userId);
    if (!subscribers) return;
    const { userId: _userId, ...data } = parsed;
    for (const subscriber of subscribers) subscriber.send({ type: 'lead.assigned', data });
  };

  const endStreams = (payload: string | undefined) => {
    let parsed: z.infer<typeof streamsEndSchema>;
    try {
      parsed = streamsEndSchema.parse(JSON.parse(payload ?? ''));
    } catch (err) {
      log.warn({ err }, 'live events: a message that is not live_streams_end');
      return;
    }
    const subscribers = streams.get(parsed.userId);
    if (!subscribers) return;
    for (const subscriber of [...subscribers]) {
      if (parsed.session === undefined || subscriber.session === parsed.session) subscriber.end();
    }
  };

  const resync = () => {
    for (const set of streams.values()) {
      for (const subscriber of set) subscriber.send({ type: 'resync', data: {} });
    }
  };

  // a lead left this user's hands, or their agency's book changed (a reclaim): their pages
  // refresh what they show, as after a lost connection
  const changed = (payload: string | undefined) => {
    let json: unknown = null;
    try {
      json = JSON.parse(payload ?? 'null');
    } catch {}
    const parsed = streamsEndSchema.safeParse(json);
    if (!parsed.success) {
      log.warn('live events: a message that is not leads_changed');
      return;
    }
    for (const subscriber of streams.get(parsed.data.userId) ?? []) {
      subscriber.send({ type: 'resync', data: {} });
    }
  };

  const handlers: Handlers = {
    [LEAD_ASSIGNED_CHANNEL]: deliver,
    [STREAMS_END_CHANNEL]: endStreams,
    [LEADS_CHANGED_CHANNEL]: changed,
  };
  const stopListening =
    database.kind === 'postgres'
      ? await listenOnPostgres(database, handlers, resync, log)
      : await listenOnPglite(database, handlers);

  return {
    subscribe(userId, subscriber) {
      let set = streams.get(userId);
      if (!set) {
        set = new Set();
        streams.set(userId, set);
      }
      set.add(subscriber);
      return () => {
        const current = streams.get(userId);
        current?.delete(subscriber);
        if (current?.size === 0) streams.delete(userId);
      };
    },
    streamsOf: (userId) => streams.get(userId)?.size ?? 0,
    endStreams() {
      for (const set of streams.values()) for (const subscriber of set) subscriber.end();
      streams.clear();
    },
    close: stopListening,
  };
}

/** What each channel's messages are handed to. */
type Handlers = Record<string, (payload: string | undefined) => void>;

async function listenOnPglite(
  database: Database,
  handlers: Handlers,
): Promise<() => Promise<void>> {
  const pglite = database.pglite;
  if (!pglite) throw new Error('live events: PGlite database without its engine');
  const unlisten = await Promise.all(
    Object.entries(handlers).map(([channel, handle]) => pglite.listen(channel, handle)),
  );
  return async () => {
    if (!pglite.closed) for (const stop of unlisten) await stop();
  };
}

/**
 * A dedicated client (not from the pool) that LISTENs, and connects again after 0.5 s, 1 s,
 * 2 s ... up to 30 s when its connection drops. Messages sent while it is down are lost (the
 * notifications stay in the table): once connected again, every open stream is told to resync.
 */
async function listenOnPostgres(
  database: Database,
  handlers: Handlers,
  reconnected: () => void,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> {
  const options = database.pool?.options;
  if (!options) throw new Error('live events: PostgreSQL database without its pool');
  let client: pg.Client | null = null;
  let closed = false;
  let delay = RECONNECT_FIRST_MS;
  let timer: NodeJS.Timeout | null = null;
  let everConnected = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
    let dropped = false;
    const onDrop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (client === next) client = null;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      if (closed) return;
      log.warn({ err }, `live events: listener connection lost, again in ${delay} ms`);
      schedule();
    };
    next.on('error', onDrop);
    next.on('end', () => onDrop());
    next.on('notification', (message) => {
      handlers[message.channel]?.(message.payload);
    });
    try {
      await next.connect();
      for (const channel of Object.keys(handlers)) await next.query(`listen ${channel}`);
    } catch (err) {
      onDrop(err as Error);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delay = RECONNECT_FIRST_MS;
    if (everConnected) {
      log.info('live events: listener connected again');
      reconnected();
    }
    everConnected = true;
  };

  const schedule = () => {
    if (timer || closed) return;
    const wait = delay;
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, wait);
    timer.unref();
  };

  await connect();
  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    timer = null;
    const current = client;
    client = null;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };
}
