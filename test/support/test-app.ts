import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BuildAppOptions, buildApp } from '../../src/server/app';
import { type AppConfig, loadConfig } from '../../src/server/config/env';
import type { Database } from '../../src/server/db/client';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { insertUser } from '../../src/server/modules/auth/users.repository';
import { createTestDatabase } from './test-db';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
}

/**
 * The environment of the apps the API tests build: light-my-request names the host
 * `localhost:80`, and the tests register far more agents from its one address than the
 * registration limits allow (test/registration-limits.test.ts sets them low).
 */
export const TEST_ENV = {
  NODE_ENV: 'test',
  SCHEDULER: 'false',
  ALLOWED_HOSTS: 'localhost:80',
  REGISTRATIONS_PER_ADDRESS: '1000000',
  REGISTRATIONS_TOTAL: '1000000',
} as const;

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return loadConfig({ ...TEST_ENV } as NodeJS.ProcessEnv, overrides);
}

/** Builds the app on a fresh database for the file's tests and closes both afterwards. */
export function setupTestApp(
  overrides: Partial<AppConfig> = {},
  options: Pick<BuildAppOptions, 'deliveryQueue'> = {},
): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    ctx.database = await createTestDatabase();
    const config = testConfig(overrides);
    ctx.app = await buildApp({ config, database: ctx.database, serveSpa: false, ...options });
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });
  return ctx;
}

let seq = 0;
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${process.pid}-${Date.now()}-${++seq}@example.com`;
}

/** A client that keeps the session cookie, like a browser. */
export class Client {
  cookie: string | undefined;
  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method,
      url,
      headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const setCookie = res.cookies.find((c) => c.name === 'lf_session');
    if (setCookie) this.cookie = setCookie.value ? `lf_session=${setCookie.value}` : undefined;
    return res;
  }
  get = (url: string) => this.request('GET', url);
  /** without a body, none is sent (logout and running the assignment take none) */
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  put = (url: string, body?: unknown) => this.request('PUT', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

export async function registerAgent(app: FastifyInstance, name = 'Agent Smith') {
  const client = new Client(app);
  const email = uniqueEmail('agent');
  const password = 'secret123';
  const reg = await client.post('/api/auth/register', { name, email, password });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const login = await client.post('/api/auth/login', { email, password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { client, id: reg.json().user.id as number, email, password, name };
}

export async function loginAdmin(ctx: TestContext) {
  const email = uniqueEmail('admin');
  const password = 'admin-secret';
  await insertUser(ctx.database.db, {
    name: 'Admin',
    email,
    passwordHash: await hashPassword(password),
    role: 'ADMIN',
  });
  const client = new Client(ctx.app);
  const res = await client.post('/api/auth/login', { email, password });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
  return { client, id: res.json().user.id as number, email, password };
}
