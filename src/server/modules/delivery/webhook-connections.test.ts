import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './webhook-channel';
import { WebhookConnections } from './webhook-connections';

/**
 * The process's webhook connections as a CRM sees them: a kept connection reused for the next call
 * to the same address, the cap holding for calls and kept connections together, and a kept
 * connection the receiver closed costing no call.
 */
interface Receiver {
  url: string;
  /** connections the receiver accepted, and how many are open now */
  accepted: Socket[];
  openNow: () => number;
  /** webhook-ids in the order they arrived */
  ids: string[];
  server: Server;
}

const servers: Server[] = [];
/** the most connections open over every receiver of a test when a call arrived */
let mostOpen = 0;
const openSockets = new Set<Socket>();

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  mostOpen = 0;
  openSockets.clear();
});

async function receiver(
  answer: (req: { socket: Socket; nth: number }) => 'ok' | 'cut' = () => 'ok',
): Promise<Receiver> {
  const accepted: Socket[] = [];
  const ids: string[] = [];
  const onSocket = new Map<Socket, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      mostOpen = Math.max(mostOpen, openSockets.size);
      const nth = (onSocket.get(req.socket) ?? 0) + 1;
      onSocket.set(req.socket, nth);
      ids.push(String(req.headers['webhook-id']));
      if (answer({ socket: req.socket, nth }) === 'cut') return void req.socket.destroy();
      res.end('ok');
    });
  });
  server.on('connection', (socket: Socket) => {
    accepted.push(socket);
    openSockets.add(socket);
    socket.on('close', () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/leads`,
    accepted,
    openNow: () => accepted.filter((s) => !s.destroyed && openSockets.has(s)).length,
    ids,
    server,
  };
}

const target = (url: string) => ({
  url,
  secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  authHeader: null,
});

async function send(connections: WebhookConnections, url: string, msgId: string) {
  const release = await connections.take();
  try {
    return await sendWebhook(target(url), msgId, '{"type":"lead.assigned"}', {
      allowPrivate: true,
      timeoutMs: 5_000,
      connections,
    });
  } finally {
    release();
  }
}

describe("the process's webhook connections", () => {
  it('reuse a kept connection for the next calls to the same address', async () => {
    const crm = await receiver();
    const connections = new WebhookConnections(4);
    for (const id of ['msg_1', 'msg_2', 'msg_3']) {
      const result = await send(connections, crm.url, id);
      expect(result).toMatchObject({ ok: true, responseCode: 200 });
    }
    expect(crm.ids).toEqual(['msg_1', 'msg_2', 'msg_3']);
    expect(crm.accepted).toHaveLength(1);
    connections.close();
  });

  it('without them a call opens a connection of its own', async () => {
    const crm = await receiver();
    for (const id of ['msg_1', 'msg_2']) {
      const result = await sendWebhook(target(crm.url), id, '{}', {
        allowPrivate: true,
        timeoutMs: 5_000,
      });
      expect(result.ok).toBe(true);
    }
    expect(crm.accepted).toHaveLength(2);
  });

  it('hold calls and kept connections within the cap: a call elsewhere closes a kept one first', async () => {
    const [a, b, c] = [await receiver(), await receiver(), await receiver()];
    const connections = new WebhookConnections(2);
    expect((await send(connections, a.url, 'msg_a')).ok).toBe(true);
    expect((await send(connections, b.url, 'msg_b')).ok).toBe(true);
    // both kept: the cap is reached
    expect(a.openNow() + b.openNow()).toBe(2);
    expect((await send(connections, c.url, 'msg_c')).ok).toBe(true);
    expect(c.ids).toEqual(['msg_c']);
    expect(mostOpen).toBeLessThanOrEqual(2);
    // the kept connection closed was the one unused the longest
    expect(a.openNow()).toBe(0);
    expect(b.openNow()).toBe(1);
    connections.close();
  });

  it('send a call again at once on a new connection when a kept one is cut before its answer', async () => {
    // the receiver cuts the second request on a connection, as when it closes an idle one
    const crm = await receiver(({ nth }) => (nth === 2 ? 'cut' : 'ok'));
    const connections = new WebhookConnections(4);
    expect((await send(connections, crm.url, 'msg_1')).ok).toBe(true);
    const second = await send(connections, crm.url, 'msg_2');
    expect(second).toMatchObject({ ok: true, responseCode: 200, error: null });
    // the same webhook-id both times: a receiver that took the first drops the repeat
    expect(crm.ids).toEqual(['msg_1', 'msg_2', 'msg_2']);
    expect(crm.accepted).toHaveLength(2);
    connections.close();
  });

  it('are closed with the process: no kept connection stays open', async () => {
    const crm = await receiver();
    const connections = new WebhookConnections(4);
    await send(connections, crm.url, 'msg_1');
    expect(crm.openNow()).toBe(1);
    connections.close();
    await expect.poll(() => crm.openNow()).toBe(0);
  });
});
