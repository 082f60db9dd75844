/** HTTP/1.1 over a bare socket, for requests no HTTP client will send as written. */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `text` as it is (add `Connection: close`) and reads the answer until the server closes. */
export function rawRequest(port: number, text: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(data));
      } catch (err) {
        reject(err);
      }
    });
    socket.write(text);
  });
}

export function parseResponse(data: string): RawResponse {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response: ${JSON.stringify(data.slice(0, 200))}`);
  const [statusLine, ...lines] = data.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: data.slice(end + 4) };
}

/**
 * Opens a connection and keeps it for a trickle: what it has received so far, and a promise of
 * the milliseconds from opening until the server closed it.
 */
export function openTrickle(port: number): {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
} {
  const socket = connect(port, '127.0.0.1');
  const opened = Date.now();
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    data += chunk;
  });
  socket.on('error', () => {
    /* a reset is one way of being closed */
  });
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => resolve(Date.now() - opened));
  });
  return { socket, received: () => data, closed };
}
