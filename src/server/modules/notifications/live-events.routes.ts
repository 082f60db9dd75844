import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { clientKey } from '../../lib/client-address';
import { currentUser, requireRole } from '../../plugins/auth';
import type { LiveEvent, LiveEvents } from './live-events';

export interface LiveEventsRoutesOptions {
  live: LiveEvents;
  /** a comment line this often keeps proxies and the browser from taking the stream for dead */
  heartbeatMs?: number;
  /**
   * A stream ends after this long, or when its session would expire if sooner, and the browser
   * opens it again at once (EventSource): the new request passes the session check again.
   */
  maxStreamMs?: number;
}

/** Streams one agent may hold open in one process (tabs, windows). */
export const MAX_STREAMS_PER_USER = 5;

function tooManyStreams(message: string): AppError {
  return new AppError('TOO_MANY_REQUESTS', message, { 'retry-after': '30' });
}

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
  // each stream holds a socket for up to maxStreamMs: capped in all and per client address
  // (IPv6 by /64), whatever the number of agents, in this process
  const { LIVE_STREAMS_TOTAL, LIVE_STREAMS_PER_ADDRESS } = app.config;
  let openStreams = 0;
  const openByAddress = new Map<string, number>();

  const description =
    'Server-Sent Events (text/event-stream) for the signed-in agent: `event: lead.assigned` with ' +
    '`{leadId, name, city, state, category, more}` when leads are assigned to them, `event: resync` ' +
    'when some may have gone unannounced (refresh what is shown), and a comment ' +
    `every ${Math.round(heartbeatMs / 1000)} s. Ask with \`Accept: text/event-stream\`; at most ` +
    `${MAX_STREAMS_PER_USER} streams per agent, ${LIVE_STREAMS_PER_ADDRESS} per client address and ` +
    `${LIVE_STREAMS_TOTAL} in all (429). A stream ends when its session does (logout, expiry) ` +
    "and when an admin changes the agent's subscription status.";
  app.get(
    '/api/agent/events',
    { onRequest: requireRole('AGENT'), schema: { summary: 'Live events', description } },
    (request, reply) => {
      const userId = currentUser(request).id;
      const session = request.sessionTokenHash;
      if (!session || !request.sessionEndsAt)
        throw new AppError('UNAUTHORIZED', 'Not authenticated');
      if (!request.headers.accept?.includes('text/event-stream')) {
        throw new AppError(
          'BAD_REQUEST',
          'This is an event stream: ask with Accept: text/event-stream',
        );
      }
      if (opts.live.streamsOf(userId) >= MAX_STREAMS_PER_USER) {
        throw tooManyStreams(
          `At most ${MAX_STREAMS_PER_USER} live streams at a time; close another tab`,
        );
      }
      const address = clientKey(request.ip);
      if ((openByAddress.get(address) ?? 0) >= LIVE_STREAMS_PER_ADDRESS) {
        throw tooManyStreams('Too many live streams from this address; close another tab');
      }
      if (openStreams >= LIVE_STREAMS_TOTAL) {
        throw tooManyStreams('The server holds as many live streams as it can; try again later');
      }
      openStreams += 1;
      openByAddress.set(address, (openByAddress.get(address) ?? 0) + 1);

      const stream = new PassThrough();
      let ended = false;
      const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), heartbeatMs);
      const sessionLeftMs = request.sessionEndsAt.getTime() - Date.now();
      const expiry = setTimeout(() => end(), Math.max(0, Math.min(maxStreamMs, sessionLeftMs)));
      let unsubscribe = () => {};
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        openStreams -= 1;
        const left = (openByAddress.get(address) ?? 1) - 1;
        if (left > 0) openByAddress.set(address, left);
        else openByAddress.delete(address);
        stream.end();
      };
      unsubscribe = opts.live.subscribe(userId, {
        session,
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
