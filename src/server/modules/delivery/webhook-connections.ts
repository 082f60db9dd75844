/**
 * The process's CRM webhook connections (WEBHOOK_MAX_CONNECTIONS): deliveries and test events
 * share them, so no number of agents or test clicks can make the server hold more sockets open
 * than this. A delivery waits for a free connection (it is never lost); a test event does not
 * wait: the agent is told to try again.
 *
 * A connection is kept open for a moment after its call (decision 046), for the next call to the
 * same address: agents of one agency often share one CRM, and a backlog sends to it call after
 * call. Kept connections are pooled by the address the SSRF guard checked (ssrf-guard.ts), never
 * by name, so a call only ever reuses a connection to the very address its own check resolved.
 * Calls in flight and kept connections together stay within the cap: a call that needs a new
 * connection closes a kept one of another address first.
 */

import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';

export type ReleaseConnection = () => void;

/**
 * How long an unused connection is kept: under the 5 s after which common servers (Node's own
 * default among them) close an idle one, so a kept connection is rarely closed under a call.
 */
export const KEPT_IDLE_MS = 2_000;

export class WebhookConnections {
  private open = 0;
  private givenBack = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly pools: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(readonly max: number) {
    const kept = { keepAlive: true, timeout: KEPT_IDLE_MS, scheduling: 'lifo' as const };
    this.pools = { 'http:': new http.Agent(kept), 'https:': new https.Agent(kept) };
    // when each connection was last given back: the one unused the longest is closed first
    for (const agent of Object.values(this.pools))
      agent.on('free', (socket: Socket) => keptSince.set(socket, ++this.givenBack));
  }

  /** A connection now, or null when every one is taken. */
  tryTake(): ReleaseConnection | null {
    if (this.open >= this.max) return null;
    this.open += 1;
    return this.releaser();
  }

  /** A connection, once one is free: those waiting get them in turn. */
  take(): Promise<ReleaseConnection> {
    const now = this.tryTake();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      this.waiting.push(() => resolve(this.releaser()));
    });
  }

  /**
   * The pool for a call (made while holding a connection taken above): a kept connection to its
   * address is reused; otherwise, with the cap reached, a kept connection elsewhere is closed
   * first.
   */
  async pooled(protocol: string, options: http.RequestOptions): Promise<http.Agent> {
    const agent = protocol === 'https:' ? this.pools['https:'] : this.pools['http:'];
    const ownKept = live(agent.freeSockets[agent.getName(options)]).length > 0;
    if (!ownKept && this.sockets() >= this.max) await this.closeOneKept();
    return agent;
  }

  /** Every kept connection closed (the process stops). */
  close(): void {
    this.pools['http:'].destroy();
    this.pools['https:'].destroy();
  }

  /** Sockets open in both pools: in calls and kept. */
  private sockets(): number {
    let count = 0;
    for (const agent of Object.values(this.pools))
      for (const group of [agent.sockets, agent.freeSockets])
        for (const list of Object.values(group)) count += live(list).length;
    return count;
  }

  /** The kept connection unused the longest, closed. */
  private async closeOneKept(): Promise<void> {
    let oldest: { socket: Socket; since: number } | null = null;
    for (const agent of Object.values(this.pools))
      for (const list of Object.values(agent.freeSockets))
        for (const socket of live(list)) {
          const since = keptSince.get(socket) ?? 0;
          if (!oldest || since < oldest.since) oldest = { socket, since };
        }
    if (!oldest) return;
    const closed = once(oldest.socket, 'close');
    oldest.socket.destroy();
    await closed;
  }

  private releaser(): ReleaseConnection {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // handed straight to the next in line: the count stays as it is
      if (next) next();
      else this.open -= 1;
    };
  }
}

const keptSince = new WeakMap<Socket, number>();

function live(list: Socket[] | undefined): Socket[] {
  return (list ?? []).filter((s) => !s.destroyed);
}
