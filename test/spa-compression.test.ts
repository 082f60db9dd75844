import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaPlugin } from '../src/server/plugins/spa';

// A dist/ laid out as the build writes it: each text file with its .br and .gz beside it, and a
// prerendered page under pages/.
const INDEX = `<!doctype html><html lang="en"><head><title>LeadFlow</title></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>`;
const LOGIN_PAGE = INDEX.replace('<div id="root"></div>', '<div id="root"><h1>Sign in</h1></div>');
const SCRIPT = `export const answer = ${JSON.stringify('leads '.repeat(500))};`;

let dir: string;
let app: FastifyInstance;

async function writeWithCompressed(path: string, text: string) {
  await writeFile(path, text);
  await writeFile(`${path}.br`, brotliCompressSync(text));
  await writeFile(`${path}.gz`, gzipSync(text));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lf-spa-'));
  await mkdir(join(dir, 'assets'));
  await writeWithCompressed(join(dir, 'index.html'), INDEX);
  await mkdir(join(dir, 'pages'));
  await writeWithCompressed(join(dir, 'pages/login.html'), LOGIN_PAGE);
  await writeWithCompressed(join(dir, 'assets/app-abc123.js'), SCRIPT);
  app = Fastify();
  await app.register(spaPlugin, { distDir: dir });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

function decoded(res: Awaited<ReturnType<typeof get>>): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  return res.rawPayload.toString();
}

describe('the SPA is sent compressed to clients that accept it', () => {
  for (const [page, html] of [
    ['/', INDEX],
    ['/admin/leads', INDEX],
    ['/login', LOGIN_PAGE],
  ] as const) {
    it(`page ${page}: its HTML in brotli, gzip or plain by Accept-Encoding`, async () => {
      const br = await get(page, 'gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^text\/html/);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('no-cache');
      expect(br.rawPayload.length).toBeLessThan(html.length);
      expect(decoded(br)).toBe(html);

      const gz = await get(page, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(decoded(gz)).toBe(html);

      const plain = await get(page);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.body).toBe(html);

      const identity = await get(page, 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body).toBe(html);
    });
  }

  it('a hashed asset: compressed when accepted, immutable either way', async () => {
    const br = await get('/assets/app-abc123.js', 'br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(br)).toBe(SCRIPT);

    const gz = await get('/assets/app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz)).toBe(SCRIPT);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe(SCRIPT);
  });

  it('a missing asset is still a 404, whatever the client accepts', async () => {
    const res = await get('/assets/app-old999.js', 'br, gzip');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
