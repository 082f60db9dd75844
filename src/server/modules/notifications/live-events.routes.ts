import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { currentUser, requireRole } from '../../plugins/auth';
import type { LiveEvent, LiveEvents } from './live-events';

export interface LiveEventsRoutesOptions {
  live: LiveEvents;
  /** a comment line this often keeps proxies and the browser from taking the stream for dead */
  heartbeatMs?: number;
  /**
   * A stream ends after this long and the browser opens it again at once (EventSource): the new
   * request passes the session check again, so a stream never outlives its session by long.
   */
  maxStreamMs?: number;
}

/** Streams one agent may hold open in one process (tabs, windows). */
export const MAX_STREAMS_PER_USER = 5;

/**
 * GET /api/agent/events: Server-Sent Events for the signed-in agent. `event: lead.assigned` with
 * the lead's name and place each time leads are assigned to them (by any process: the listener
 * of live-events.ts), a comment as a heartbeat, nothing else. The answer is a stream through the
 * app's hooks like any other (security headers; no compression is registered for API answers),
 * and the connection's idle timeout is lifted for it: the heartbeat and the stream's own end
 * keep it bounded.
 */
export const liveEventsRoutes: FastifyPluginAsyncZod<LiveEventsRoutesOptions> = async (
  app,
  opts,
) => {
  const heartbeatMs = opts.heartbeatMs ?? 25_000;
  const maxStreamMs = opts.maxStreamMs ?? 30 * 60_000;

  const description =
    'Server-Sent Events (text/event-stream) for the signed-in agent: `event: lead.assigned` with ' +
    '`{leadId, name, city, state, category, more}` when leads are assigned to them, `event: resync` ' +
    'when some may have gone unannounced (refresh what is shown), and a comment ' +
    `every ${Math.round(heartbeatMs / 1000)} s. Ask with \`Accept: text/event-stream\`; at most ` +
    `${MAX_STREAMS_PER_USER} streams per agent (429).`;
  app.get(
    '/api/agent/events',
    { onRequest: requireRole('AGENT'), schema: { summary: 'Live events', description } },
    (request, reply) => {
      const userId = currentUser(request).id;
      if (!request.headers.accept?.includes('text/event-stream')) {
        throw new AppError(
          'BAD_REQUEST',
          'This is an event stream: ask with Accept: text/event-stream',
        );
      }
      if (opts.live.streamsOf(userId) >= MAX_STREAMS_PER_USER) {
        throw new AppError(
          'TOO_MANY_REQUESTS',
          `At most ${MAX_STREAMS_PER_USER} live streams at a time; close another tab`,
          { 'retry-after': '30' },
        );
      }
      const stream = new PassThrough();
      let ended = false;
      const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), heartbeatMs);
      const expiry = setTimeout(() => end(), maxStreamMs);
      let unsubscribe = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        stream.end();
      };
      unsubscribe = opts.live.subscribe(userId, {
        send: (event: LiveEvent) => {
          if (!ended) stream.write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
        },
        end,
      });
      request.raw.on('close', end);
      reply.raw.on('close', end);
      // the socket's idle timeout (CONNECTION_TIMEOUT_MS) is for requests that stall, not this one
      const socket = request.raw.socket;
      if (typeof socket?.setTimeout === 'function') socket.setTimeout(0);

      // the browser waits this long before it opens the stream again after it ends
      stream.write(': connected\nretry: 3000\n\n');
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store, no-transform')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );
};
