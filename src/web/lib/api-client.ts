/**
 * The one HTTP path of the web app (spec section 8): every call sends the session cookie,
 * payloads go as JSON (FormData as multipart), and any non-OK answer throws an ApiError
 * whose message is `${status}: ${bodyText || statusText}`.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, body);
}

/** Sends a request and returns the raw Response once it is known to be OK. */
export async function apiRequest(method: HttpMethod, url: string, data?: unknown) {
  const isForm = typeof FormData !== 'undefined' && data instanceof FormData;
  const hasJson = data !== undefined && !isForm;
  const res = await fetch(url, {
    method,
    headers: hasJson ? { 'Content-Type': 'application/json' } : undefined,
    body: isForm ? (data as FormData) : hasJson ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest plus the parsed JSON answer (undefined for an empty body such as 204). */
export async function apiJson<T>(method: HttpMethod, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const STATUS_PREFIX = /^\d{3}: /;

/**
 * The server's `message` field from a failed call, for a toast's description; the fallback
 * when the call failed some other way (network down, non-JSON body, no message).
 */
export function errorMessage(error: unknown, fallback: string): string {
  const body =
    error instanceof ApiError
      ? error.body
      : error instanceof Error && STATUS_PREFIX.test(error.message)
        ? error.message.replace(STATUS_PREFIX, '')
        : '';
  if (!body) return fallback;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === 'string' && message.trim()) return message;
    }
  } catch {
    // Not JSON: a proxy page or plain text is no message for a user.
  }
  return fallback;
}
