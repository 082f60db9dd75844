import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

/** Paths of the reference itself: not part of the API it describes. */
export const DOCS_PREFIX = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

/** Every refusal: a message, and for a refused body the fields at fault (plugins/errors). */
const ERROR_ANSWER = {
  description: 'Refused: `message` says why; a refused body also lists `errors` by field',
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

type RouteTransformInput = Parameters<ReturnType<typeof createJsonSchemaTransform>>[0];

/**
 * Who may call a path, as the document says it: the intake by a source's API key, admin and
 * agent paths by the session cookie, the rest (health, login, packages) by anyone.
 */
function accessOf(url: string): { tag: string; security?: Record<string, string[]>[] } {
  if (url.startsWith('/api/v1/')) return { tag: 'Intake', security: [{ apiKey: [] }] };
  if (url.startsWith('/api/admin/')) return { tag: 'Admin', security: [{ session: [] }] };
  if (url.startsWith('/api/agent/')) return { tag: 'Agent', security: [{ session: [] }] };
  if (url.startsWith('/api/auth/')) return { tag: 'Account' };
  // a call's recording: the lead's agent or an admin, by session (docs/domain.md, Follow-up messages and calls)
  if (url.startsWith('/api/recordings/')) return { tag: 'Recordings', security: [{ session: [] }] };
  // Twilio's callbacks: no session, each signed (X-Twilio-Signature)
  if (url.startsWith('/api/telephony/')) return { tag: 'Twilio callbacks' };
  return { tag: 'Public' };
}

/**
 * The whole API described by an OpenAPI 3.1 document generated from the routes' zod contracts
 * (docs/domain.md, Sources and the intake API): `GET /api/openapi.json`, and a readable reference at `/api/docs` (Swagger UI,
 * served from this server: no outside assets). Registered before the route table, so that it
 * sees every route; test/openapi.test.ts fails when a route is missing from the document.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  const zodTransform = createJsonSchemaTransform({
    skipList: [`${DOCS_PREFIX}/*`, DOCS_PREFIX, OPENAPI_PATH],
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'LeadFlow API',
        version: '1.0.0',
        description:
          'Leads for insurance agents. Portal calls use the session cookie `lf_session` ' +
          "(POST /api/auth/login) and must come from the portal's own origin; the intake " +
          "(`POST /api/v1/leads`) uses a source's API key as a bearer token. Errors answer " +
          '`{message}`, and a refused body `{message, errors: [{field, message}]}`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'lf_session' },
          apiKey: { type: 'http', scheme: 'bearer', description: "A source's API key" },
        },
      },
    },
    transform: (input: RouteTransformInput) => {
      const out = zodTransform(input);
      const { tag, security } = accessOf(input.url);
      const schema = (out.schema ?? {}) as Record<string, unknown>;
      const response = { ...(schema.response as object | undefined), '4XX': ERROR_ANSWER };
      const described: FastifySchema = {
        ...schema,
        response,
        tags: (schema.tags as string[] | undefined) ?? [tag],
        ...(security ? { security } : {}),
      };
      return { ...out, schema: described };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
    theme: {
      title: 'LeadFlow API reference',
      // the explorer bar would invite loading other documents: this page shows ours
      css: [{ filename: 'theme.css', content: '.swagger-ui .topbar { display: none }' }],
    },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  // the reference's assets are relative (./static/...): /api/docs must end with a slash
  // (preHandler: after the checks every request passes, a body on this GET included)
  app.addHook('preHandler', async (request, reply) => {
    if (request.url === DOCS_PREFIX) return reply.redirect(`${DOCS_PREFIX}/`);
  });
});
