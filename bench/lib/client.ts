/** A minimal API client for the benches: JSON requests with the session cookie, like the SPA. */
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './server';

export interface Session {
  cookie: string;
  userId: number;
}

export async function api<T = unknown>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

/** Like api(), but throws unless the status is the expected one. */
export async function apiOk<T = unknown>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; cookie?: string } = {},
  expected = 200,
): Promise<T> {
  const res = await api<T>(baseUrl, path, init);
  if (res.status !== expected) {
    throw new Error(
      `${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
    );
  }
  return res.body;
}

export async function login(baseUrl: string, email: string, password: string): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: number } };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('lf_session='));
  if (!cookie) throw new Error('login answered no lf_session cookie');
  return { cookie, userId: body.user.id };
}

export const loginAdmin = (baseUrl: string) => login(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);

/** Registers an agent through the public sign-up and signs it in. */
export async function registerAgent(
  baseUrl: string,
  name: string,
  email: string,
  password = 'bench-agent-pass',
): Promise<Session> {
  await apiOk(baseUrl, '/api/auth/register', { body: { name, email, password } }, 201);
  return login(baseUrl, email, password);
}
