import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { OPERATION_SUMMARIES } from './openapi-summaries';

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

type Security = Record<string, string[]>[];

/**
 * Who may call a path, as the document says it: the intake by a source's API key, admin and
 * agent paths by the session cookie, Stripe's and Twilio's callbacks by their signatures, the
 * rest (health, login, packages) by anyone (an empty security list: no credential).
 */
function accessOf(url: string): { tag: string; security: Security; who: string } {
  if (url.startsWith('/api/v1/'))
    return {
      tag: 'Intake',
      security: [{ apiKey: [] }],
      who: "A source's API key as a bearer token.",
    };
  if (url.startsWith('/api/admin/'))
    return { tag: 'Admin', security: [{ session: [] }], who: "An admin's session." };
  if (url.startsWith('/api/agent/'))
    return { tag: 'Agent', security: [{ session: [] }], who: "The signed-in agent's session." };
  if (url === '/api/auth/password/change')
    return { tag: 'Account', security: [{ session: [] }], who: "The signed-in user's session." };
  if (url.startsWith('/api/auth/'))
    return { tag: 'Account', security: [], who: 'No credential needed.' };
  // a call's recording: the lead's agent or an admin, by session (docs/domain.md, Follow-up messages and calls)
  if (url.startsWith('/api/recordings/'))
    return {
      tag: 'Recordings',
      security: [{ session: [] }],
      who: "The lead's agent's or an admin's session.",
    };
  if (url.startsWith('/api/telephony/'))
    return {
      tag: 'Twilio callbacks',
      security: [{ twilioSignature: [] }],
      who: "Twilio's calls, each signed (X-Twilio-Signature); 403 otherwise.",
    };
  if (url.startsWith('/api/billing/stripe/'))
    return {
      tag: 'Stripe webhooks',
      security: [{ stripeSignature: [] }],
      who: "Stripe's calls, each signed (Stripe-Signature); 400 otherwise.",
    };
  return { tag: 'Public', security: [], who: 'No credential needed.' };
}

/** What each status of an answer means, where the route's own schema does not say. */
const STATUS_MEANING: Record<string, string> = {
  '200': 'Done: the answer below',
  '201': 'Created: the new object below',
  '202': 'Accepted: the work goes on after this answer',
  '204': 'Done: no content',
  '206': 'Part of the content (a Range was asked for)',
  '4XX': ERROR_ANSWER.description,
};

/** The intake's answers, each with its meaning (vendors program against them). */
const INTAKE_ANSWERS: Record<string, string> = {
  '200': 'A retry: this source already sent this externalId; the first lead and its status',
  '201': 'Received: the lead, ASSIGNED when an agent took it at once, else NEW',
  '401': 'No API key, or a revoked key or deactivated source (WWW-Authenticate: Bearer)',
  '413': 'The body is over 16 KiB',
  '422': 'Refused: invalid (errors by field), a duplicate, or refused without a reason',
  '429': 'Over 50 requests a second for this key: wait Retry-After seconds',
};

/** A lead as a vendor posts it: the reference's example. */
const EXAMPLE_LEAD = {
  externalId: 'vendor-000123',
  firstName: 'Mary',
  lastName: 'Ortiz',
  phone: '(512) 555-0147',
  email: 'mary.ortiz@example.com',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  age: 67,
  category: 'MEDICARE',
  consent: {
    at: '2026-11-27T14:05:00Z',
    text: 'I agree to be contacted about Medicare plans by phone, text and email.',
    trustedFormCertUrl: 'https://cert.trustedform.com/2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a',
  },
};

/** Answers that are not JSON (no response schema on the route): their media type and meaning. */
const OTHER_ANSWERS: Record<string, { type: string; description: string }> = {
  'GET /api/agent/events': {
    type: 'text/event-stream',
    description: 'The stream: `event: lead.assigned` and keep-alive comments, until it ends',
  },
  'GET /api/recordings/{id}': {
    type: 'audio/wav',
    description: 'The recording (206 with Content-Range when a Range was asked for)',
  },
  'POST /api/telephony/sms/inbound': { type: 'text/xml', description: 'An empty TwiML Response' },
  'POST /api/telephony/voice/{callId}/connect': {
    type: 'text/xml',
    description: 'TwiML: the announcement and the recorded Dial, or a Hangup',
  },
  'POST /api/telephony/voice/{callId}/dialed': { type: 'text/xml', description: 'TwiML: a Hangup' },
};

/** `post` `/api/admin/leads/{id}` -> `postAdminLeadsById`: unique, stable, readable. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .flatMap((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      return param ? ['by', param[1] as string] : part.split(/[-_.]/);
    });
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join(
    '',
  );
}

/** Each answer with its meaning: the route's own description, else its status's. */
function describeAnswers(response: Record<string, unknown>, meanings: Record<string, string>) {
  const out: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(response)) {
    const schema = (answer ?? {}) as Record<string, unknown>;
    const meaning = meanings[status] ?? STATUS_MEANING[status] ?? 'See the description';
    out[status] =
      typeof schema.description === 'string' ? schema : { ...schema, description: meaning };
  }
  return out;
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
        license: { name: 'Proprietary', url: app.config.PUBLIC_URL },
        description:
          'Leads for insurance agents. Portal calls use the session cookie `lf_session` ' +
          "(POST /api/auth/login) and must come from the portal's own origin; the intake " +
          "(`POST /api/v1/leads`) uses a source's API key as a bearer token. Errors answer " +
          '`{message}`, and a refused body `{message, errors: [{field, message}]}`.',
      },
      servers: [{ url: app.config.PUBLIC_URL, description: 'This portal' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'lf_session' },
          apiKey: { type: 'http', scheme: 'bearer', description: "A source's API key" },
          twilioSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Twilio-Signature',
            description:
              "Twilio's signature of the URL and parameters, under the account's auth token",
          },
          stripeSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'Stripe-Signature',
            description: "Stripe's signature of the timestamp and body, under the webhook secret",
          },
        },
      },
    },
    transform: (input: RouteTransformInput) => {
      const out = zodTransform(input);
      const { tag, security, who } = accessOf(input.url);
      const schema = (out.schema ?? {}) as Record<string, unknown>;
      const path = input.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const method = String(
        Array.isArray(input.route.method) ? input.route.method[0] : input.route.method,
      );
      const key = `${method.toUpperCase()} ${path}`;
      const summary = OPERATION_SUMMARIES[key];
      const intake = key === 'POST /api/v1/leads';
      const errors = intake
        ? Object.fromEntries(
            ['401', '413', '429'].map((status) => [
              status,
              { ...ERROR_ANSWER, description: INTAKE_ANSWERS[status] },
            ]),
          )
        : { '4XX': ERROR_ANSWER };
      const other = OTHER_ANSWERS[key];
      const success = other
        ? {
            '200': {
              description: other.description,
              content: { [other.type]: { schema: { type: 'string' } } },
            },
          }
        : {};
      const response = describeAnswers(
        { ...success, ...(schema.response as object | undefined), ...errors },
        intake ? INTAKE_ANSWERS : {},
      );
      const own = typeof schema.description === 'string' ? schema.description : summary;
      const described: FastifySchema = {
        ...schema,
        ...(summary ? { summary } : {}),
        description: `${own ?? ''}${own?.endsWith('.') ? '' : '.'} ${who}`.trim(),
        operationId: operationIdOf(method, path),
        response,
        tags: (schema.tags as string[] | undefined) ?? [tag],
        security,
        ...(intake && schema.body
          ? { body: { ...(schema.body as object), examples: [EXAMPLE_LEAD] } }
          : {}),
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
