/**
 * The agent's live event stream (docs/domain.md, Delivery of assigned leads) read as a browser
 * reads it: `GET /api/agent/events` over a real HTTP connection, its events parsed as they come.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface Stream {
  status: number;
  headers: IncomingMessage['headers'];
  events: SseEvent[];
  comments: string[];
  /** the body of a refused request */
  body: string;
  closed: boolean;
  /** waits for the n-th `lead.assigned` event (1-based) */
  nth(n: number, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** Opens the event stream as a browser would: over HTTP, with the session cookie. */
export function openStream(
  onPort: number,
  cookie: string | undefined,
  headers: Record<string, string> = {},
): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port: onPort,
      path: '/api/agent/events',
      headers: {
        host: 'localhost:80', // the tests' ALLOWED_HOSTS
        accept: 'text/event-stream',
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let buffer = '';
      const stream: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        comments: [],
        body: '',
        closed: false,
        async nth(n, timeoutMs = 5000) {
          const deadline = Date.now() + timeoutMs;
          while (Date.now() < deadline) {
            const found = stream.events.filter((e) => e.event === 'lead.assigned')[n - 1];
            if (found) return found;
            await sleep(20);
          }
          throw new Error(`no event #${n} within ${timeoutMs} ms (got ${stream.events.length})`);
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.body += chunk;
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) stream.events.push({ event, data: JSON.parse(data) });
          cut = buffer.indexOf('\n\n');
        }
      });
      res.on('close', () => {
        stream.closed = true;
      });
      // a refused request ends at once; a stream answers its first comment at once
      if (res.statusCode === 200) res.once('data', () => resolve(stream));
      else res.on('end', () => resolve(stream));
    });
    req.end();
  });
}
