/**
 * The one HTTP path of the web app (docs/domain.md, Screens): every call sends the session cookie,
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

/** The JSON body of a failed call, when it has one. */
function errorBody(error: unknown): Record<string, unknown> | null {
  const body =
    error instanceof ApiError
      ? error.body
      : error instanceof Error && STATUS_PREFIX.test(error.message)
        ? error.message.replace(STATUS_PREFIX, '')
        : '';
  if (!body) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    // Not JSON: a proxy page or plain text is no message for a user.
    return null;
  }
}

/** One field the server refused, and why: `field` is its path in the body ("ageMin", "cities.2"). */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * The server's per-field messages of a refused request (a 400's `errors`), in its order; none
 * when the answer has no such list (an older server, another error).
 */
export function fieldIssues(error: unknown): FieldIssue[] {
  const errors = errorBody(error)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (issue): issue is FieldIssue =>
      !!issue &&
      typeof issue === 'object' &&
      typeof issue.field === 'string' &&
      typeof issue.message === 'string' &&
      issue.message.trim() !== '',
  );
}

/**
 * The server's `message` field from a failed call, for a toast's description (or, without one,
 * its field messages); the fallback when the call failed some other way (network down, non-JSON
 * body, no message).
 */
export function errorMessage(error: unknown, fallback: string): string {
  const message = errorBody(error)?.message;
  if (typeof message === 'string' && message.trim()) return message;
  const issues = fieldIssues(error);
  if (issues.length > 0) return issues.map((issue) => issue.message).join(' ');
  return fallback;
}

/**
 * The first message for each of a form's fields, for showing under them: a path is read by its
 * first part ("cities.2" is the cities field), renamed where the form names the field otherwise
 * (the package form's price is the body's priceMonthlyCents). Issues of no field of the form
 * are left to the toast.
 */
export function formFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  rename: Partial<Record<string, F>> = {},
): Partial<Record<F, string>> {
  const found: Partial<Record<F, string>> = {};
  for (const issue of fieldIssues(error)) {
    const root = issue.field.split('.')[0] ?? '';
    const field = rename[root] ?? (fields.includes(root as F) ? (root as F) : undefined);
    if (field && found[field] === undefined) found[field] = issue.message;
  }
  return found;
}
