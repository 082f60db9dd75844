import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientError } from './client-error';

/** A percent-encoded unreserved character (RFC 3986 2.3): ALPHA, DIGIT, '-', '.', '_', '~'. */
const ENCODED_UNRESERVED = /%(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e)/i;

/**
 * Which requests reach the routes at all, before any other hook:
 * - the request target must be in origin form (`/path?query`) and spell its path canonically:
 *   an absolute-form target (`http://host/api/...`) or a percent-encoded letter, digit or `-._~`
 *   (`/%61pi/...`) is refused with 400. The router would decode both to a route, while code that
 *   reads the target (the session lookup once did) would not recognise it; browsers never send
 *   either.
 * - the Host (or, from a trusted proxy, X-Forwarded-Host) must be one of ALLOWED_HOSTS: a DNS-
 *   rebinding page reaches this server under its own name and is refused with 421 Misdirected
 *   Request. `GET /api/health` is exempt, for load balancers' and orchestrators' probes, which
 *   name the server by its address; it answers nothing private without a session cookie, which
 *   such a page cannot have.
 */
export const requestTargetPlugin = fp(async (app: FastifyInstance) => {
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const entry of app.config.ALLOWED_HOSTS) {
    const parsed = splitHost(entry);
    if (parsed?.port) exact.add(`${parsed.name}:${parsed.port}`);
    else if (parsed) anyPort.add(parsed.name);
  }

  function hostAllowed(request: FastifyRequest): boolean {
    const parsed = splitHost(request.host ?? '');
    if (!parsed) return false;
    const https = app.config.COOKIE_SECURE || request.protocol === 'https';
    const port = parsed.port ?? (https ? '443' : '80');
    return anyPort.has(parsed.name) || exact.has(`${parsed.name}:${port}`);
  }

  app.addHook('onRequest', async (request) => {
    const target = request.raw.url ?? '';
    const path = target.split('?', 1)[0];
    if (!target.startsWith('/') || ENCODED_UNRESERVED.test(path)) {
      throw clientError(400, 'Malformed request target: send the path as /api/..., not encoded');
    }
    const isHealth =
      request.routeOptions.url === '/api/health' &&
      (request.method === 'GET' || request.method === 'HEAD');
    if (!isHealth && !hostAllowed(request)) {
      throw clientError(
        421,
        'Unknown host: this server answers only for the names it is set up for',
      );
    }
  });
});

/** `name[:port]`, the name lowercased (an IPv6 address keeps its brackets); null when malformed. */
export function splitHost(host: string): { name: string; port?: string } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match) return null;
  return { name: match[1].toLowerCase(), port: match[2] };
}
