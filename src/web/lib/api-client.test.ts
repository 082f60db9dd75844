import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  apiJson,
  apiRequest,
  errorMessage,
  fieldIssues,
  formFieldErrors,
} from './api-client';

type Seen = { method?: string; contentType?: string; body: string };
let server: Server;
let base: string;
let seen: Seen;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => resolve(data));
  });
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen = {
      method: req.method,
      contentType: req.headers['content-type'],
      body: await readBody(req),
    };
    if (req.url === '/conflict') {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Email already registered' }));
    } else if (req.url === '/empty-error') {
      res.writeHead(503, 'Service Unavailable');
      res.end();
    } else if (req.url === '/no-content') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('apiRequest', () => {
  it('sends a payload as JSON with a JSON content type', async () => {
    await apiRequest('POST', `${base}/echo`, { email: 'a@b.c', password: 'x' });
    expect(seen.method).toBe('POST');
    expect(seen.contentType).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ email: 'a@b.c', password: 'x' });
  });

  it('sends FormData as multipart, not JSON', async () => {
    const form = new FormData();
    form.append('file', new Blob(['state,city\n'], { type: 'text/csv' }), 'leads.csv');
    await apiRequest('POST', `${base}/upload`, form);
    expect(seen.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.body).toContain('filename="leads.csv"');
  });

  it('sends no body and no content type without a payload', async () => {
    await apiRequest('POST', `${base}/logout`);
    expect(seen.contentType).toBeUndefined();
    expect(seen.body).toBe('');
  });

  it('throws "status: body" for a non-OK answer', async () => {
    const error = await apiRequest('POST', `${base}/conflict`, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('409: {"message":"Email already registered"}');
    expect((error as ApiError).status).toBe(409);
  });

  it('throws "status: statusText" when the body is empty', async () => {
    await expect(apiRequest('GET', `${base}/empty-error`)).rejects.toThrow(
      '503: Service Unavailable',
    );
  });

  it('parses JSON, and gives undefined for an empty answer', async () => {
    await expect(apiJson('GET', `${base}/ok`)).resolves.toEqual({ ok: true });
    await expect(apiJson('DELETE', `${base}/no-content`)).resolves.toBeUndefined();
  });
});

describe('errorMessage', () => {
  it("reads the server's message field", async () => {
    const error = await apiRequest('POST', `${base}/conflict`, {}).catch((e: unknown) => e);
    expect(errorMessage(error, 'Unable to create account')).toBe('Email already registered');
  });

  it('reads it from a plain Error in the same "status: body" shape', () => {
    expect(errorMessage(new Error('401: {"message":"Bad credentials"}'), 'x')).toBe(
      'Bad credentials',
    );
  });

  it('falls back when there is no usable message', () => {
    expect(errorMessage(new ApiError(502, 'Bad Gateway', '<html>'), 'Upload failed')).toBe(
      'Upload failed',
    );
    expect(errorMessage(new ApiError(500, 'Error', '{"error":"x"}'), 'Upload failed')).toBe(
      'Upload failed',
    );
    expect(errorMessage(new TypeError('Failed to fetch'), 'Upload failed')).toBe('Upload failed');
    expect(errorMessage(undefined, 'Upload failed')).toBe('Upload failed');
  });
});

describe('field errors of a refused request', () => {
  const refused = (body: unknown) => new ApiError(400, 'Bad Request', JSON.stringify(body));
  const answer = refused({
    message: 'Minimum age cannot be above maximum age, and a city name is too long.',
    errors: [
      { field: 'ageMin', message: 'Minimum age cannot be above maximum age' },
      { field: 'cities.2', message: 'A city name is at most 100 characters' },
      { field: 'cities.5', message: 'A city name is at most 100 characters (again)' },
      { field: 'priceMonthlyCents', message: 'Price can be at most $1,000,000' },
    ],
  });

  it('reads each field issue, and the sentence for the toast', () => {
    expect(fieldIssues(answer)).toHaveLength(4);
    expect(errorMessage(answer, 'Failed')).toBe(
      'Minimum age cannot be above maximum age, and a city name is too long.',
    );
  });

  it("gives each of the form's fields its first message, by the path's first part", () => {
    expect(formFieldErrors(answer, ['cities', 'ageMin', 'ageMax'] as const)).toEqual({
      ageMin: 'Minimum age cannot be above maximum age',
      cities: 'A city name is at most 100 characters',
    });
  });

  it('renames the fields the form calls otherwise', () => {
    expect(
      formFieldErrors(answer, ['name', 'price'] as const, { priceMonthlyCents: 'price' }),
    ).toEqual({ price: 'Price can be at most $1,000,000' });
  });

  it("changes nothing for today's answer without errors, nor for other failures", () => {
    const today = refused({ message: 'Invalid body: ageMin: Too small' });
    expect(fieldIssues(today)).toEqual([]);
    expect(formFieldErrors(today, ['ageMin'] as const)).toEqual({});
    expect(errorMessage(today, 'Failed')).toBe('Invalid body: ageMin: Too small');
    expect(fieldIssues(new Error('network down'))).toEqual([]);
    expect(fieldIssues(new ApiError(502, 'Bad Gateway', '<html>'))).toEqual([]);
    // a malformed list is ignored item by item
    expect(
      fieldIssues(refused({ errors: [null, { field: 'a' }, { field: 'b', message: 'B' }] })),
    ).toEqual([{ field: 'b', message: 'B' }]);
  });

  it('words the toast from the field messages when the answer has no message', () => {
    const bare = refused({ errors: [{ field: 'email', message: 'Enter a valid email' }] });
    expect(errorMessage(bare, 'Failed')).toBe('Enter a valid email');
  });
});
