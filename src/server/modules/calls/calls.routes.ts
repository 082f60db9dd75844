import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentServicesResponse,
  leadCallsResponse,
  startCallResponse,
} from '../../../shared/contracts/calls';
import { currentUser, requireRole } from '../../plugins/auth';
import { agentServices, leadCalls, recordingStream, startCall } from './calls.service';

const leadParams = z.object({ id: z.coerce.number().int().positive() });

/** Click-to-call (docs/domain.md, Follow-up messages and calls): the agent's services, a call, the lead's call log, recordings. */
export const callsRoutes: FastifyPluginAsyncZod = async (app) => {
  const agent = { onRequest: requireRole('AGENT') };

  app.get(
    '/api/agent/services',
    {
      ...agent,
      schema: {
        description: "The agent's phone, and whether calls and follow-up messages can be used",
        response: { 200: agentServicesResponse },
      },
    },
    (request) => agentServices(app.db, app.config, currentUser(request).id),
  );

  app.post(
    '/api/agent/leads/:id/call',
    {
      ...agent,
      schema: {
        description:
          "Rings the agent's phone, announces the recording and bridges to the lead (409 when the lead cannot be called now, and why)",
        params: leadParams,
        response: { 201: startCallResponse },
      },
    },
    async (request, reply) => {
      const call = await startCall(app.db, app.config, currentUser(request).id, request.params.id);
      return reply.status(201).send(call);
    },
  );

  app.get(
    '/api/agent/leads/:id/calls',
    {
      ...agent,
      schema: { params: leadParams, response: { 200: leadCallsResponse } },
    },
    (request) => leadCalls(app.db, currentUser(request).id, request.params.id),
  );

  app.get(
    '/api/recordings/:id',
    {
      onRequest: requireRole(),
      schema: {
        description:
          "A call's recording (audio), streamed from the provider: the lead's agent and admins only",
        params: leadParams,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const range = request.headers.range;
      const stream = await recordingStream(app.db, app.config, user, request.params.id, range);
      return reply.status(stream.status).headers(stream.headers).send(stream.body);
    },
  );
};
