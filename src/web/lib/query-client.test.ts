import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QueryFunctionContext } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient, getQueryFn, isUnauthorized, queryKeyToUrl } from './query-client';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/me') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Not signed in' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const context = (queryKey: readonly unknown[]) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined }) as QueryFunctionContext;

describe('queryKeyToUrl', () => {
  it('uses the first key element as the path', () => {
    expect(queryKeyToUrl(['/api/packages'])).toBe('/api/packages');
  });

  it('adds defined values of a params object as the query string', () => {
    expect(queryKeyToUrl(['/api/agent/leads', { status: 'NEW', q: '' }])).toBe(
      '/api/agent/leads?status=NEW',
    );
    expect(queryKeyToUrl(['/api/agent/leads', { status: undefined }])).toBe('/api/agent/leads');
  });
});

describe('getQueryFn', () => {
  it('GETs the key and parses JSON', async () => {
    const load = getQueryFn<{ url: string }>({ on401: 'throw' });
    await expect(load(context([`${base}/api/x`, { status: 'NEW' }]))).resolves.toEqual({
      url: '/api/x?status=NEW',
    });
  });

  it("returns null on 401 with 'returnNull'", async () => {
    const load = getQueryFn({ on401: 'returnNull' });
    await expect(load(context([`${base}/me`]))).resolves.toBeNull();
  });

  it("throws on 401 with 'throw'", async () => {
    const load = getQueryFn({ on401: 'throw' });
    const error = await Promise.resolve(load(context([`${base}/me`]))).catch((e: unknown) => e);
    expect(isUnauthorized(error)).toBe(true);
    expect((error as Error).message).toBe('401: {"message":"Not signed in"}');
  });
});

describe('createQueryClient', () => {
  it('never retries, never goes stale, never refetches on focus or by polling', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.retry).toBe(false);
    expect(queries?.staleTime).toBe(Number.POSITIVE_INFINITY);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(mutations?.retry).toBe(false);
  });
});
