/**
 * The generic half of the audit log (docs/domain.md, Audit log; decision 035): every successful
 * write (POST, PUT, PATCH, DELETE) by an admin, and every successful write under `/api/agency` by
 * an agency's OWNER or MANAGER, is one row: action "METHOD /route/:pattern", the target from the
 * route's last parameter (or the id the answer names, or the agency), the body as `after` without
 * its secrets. Recorded in onSend, before the answer leaves, so a client that sees the answer
 * finds the row. The security events are recorded by their modules (recordAuditEvent).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { agencyRoleOf, recordAuditEvent } from './audit.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * what a route's audit row keeps as `after`: its body without secrets (the default), or its
     * answer, for a body that must not be kept (a consumer's contact in a deletion request)
     */
    auditRecords?: 'body' | 'answer';
  }
  interface FastifyRequest {
    /** the caller's agency and role in it before an agency write (the audit hook's) */
    auditAgency: { agencyId: number; role: string } | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** recorded explicitly, as security events, by the auth module */
const EXPLICIT = /^\/api\/auth\//;

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ss')) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** What a route's pattern and params name: the last parameter and the segment before it. */
export function auditTarget(
  pattern: string,
  params: Record<string, unknown>,
  answer: unknown,
): { targetType: string | null; targetId: string | null } {
  const segments = pattern.split('/').filter((s) => s && s !== 'api');
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (!segment.startsWith(':')) continue;
    const value = params[segment.slice(1)];
    const before = segments
      .slice(0, i)
      .reverse()
      .find((s) => !s.startsWith(':') && s !== 'admin');
    return {
      targetType: before ? singular(before) : null,
      targetId: value === undefined || value === null ? null : String(value),
    };
  }
  const last = segments.filter((s) => s !== 'admin').at(-1) ?? null;
  const id =
    answer && typeof answer === 'object' && 'id' in answer
      ? (answer as { id: unknown }).id
      : undefined;
  return {
    targetType: last ? singular(last) : null,
    targetId: typeof id === 'number' || typeof id === 'string' ? String(id) : null,
  };
}

function parsedAnswer(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > 65_536) return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

function isAgencyWrite(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? '';
  return WRITES.has(request.method) && (url === '/api/agency' || url.startsWith('/api/agency/'));
}

export const auditHookPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('auditAgency', null);

  // an agency write: who the caller is in their agency before it runs (an owner handing over is
  // still the owner who did it)
  app.addHook('preHandler', async (request) => {
    const user = request.user;
    if (user?.role !== 'AGENT' || !isAgencyWrite(request)) return;
    request.auditAgency = await agencyRoleOf(app.db, user.id);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const user = request.user;
    const url = request.routeOptions.url;
    if (!user || !url || !WRITES.has(request.method) || reply.statusCode >= 400) return payload;
    if (!url.startsWith('/api/') || EXPLICIT.test(url)) return payload;
    let role: string | null = null;
    let agencyId: number | null = null;
    if (user.role === 'ADMIN') role = 'ADMIN';
    else if (isAgencyWrite(request)) {
      let member = request.auditAgency;
      // the agency just created: its creator is now its owner
      if (!member && request.method === 'POST' && url === '/api/agency') {
        member = await agencyRoleOf(app.db, user.id);
      }
      if (member && (member.role === 'OWNER' || member.role === 'MANAGER')) {
        role = member.role;
        agencyId = member.agencyId;
      }
    }
    if (!role) return payload;
    const answer = parsedAnswer(payload);
    const target = auditTarget(url, (request.params ?? {}) as Record<string, unknown>, answer);
    if (agencyId !== null && url === '/api/agency') {
      target.targetType = 'agency';
      target.targetId = String(agencyId);
    }
    const body = request.routeOptions.config.auditRecords === 'answer' ? answer : request.body;
    try {
      await recordAuditEvent(app.db, {
        actor: { id: user.id, role },
        ip: request.ip,
        action: `${request.method} ${url}`,
        ...target,
        after: body !== null && typeof body === 'object' && !Array.isArray(body) ? body : null,
        agencyId,
      });
    } catch (err) {
      request.log.error({ err }, 'the audit event could not be recorded');
    }
    return payload;
  });
});
