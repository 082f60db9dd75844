import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { leadExplanation, leadFit, unfitReasons } from '../../../shared/contracts/explanation';
import { requireRole } from '../../plugins/auth';
import {
  type ExplainedAgents,
  explainLead,
  leadFitForAgent,
  unfitNewLeads,
} from './explanation.service';

export interface ExplanationRoutesOptions {
  /** the process's copy of the agents the explanation asks the fit rule of (decision 044) */
  agents: ExplainedAgents;
}

const leadParams = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** Why this agent (docs/domain.md, Analytics that explain): one lead's explanation, and the NEW leads that fit no agent. */
export const explanationRoutes: FastifyPluginAsyncZod<ExplanationRoutesOptions> = async (
  app,
  opts,
) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/leads/:id/explain',
    { ...admin, schema: { params: leadParams, response: { 200: leadExplanation } } },
    (request) =>
      explainLead(app.database.readDb, app.config, request.params.id, new Date(), opts.agents),
  );

  app.get(
    '/api/admin/leads/:id/fit/:agentId',
    {
      ...admin,
      schema: {
        params: leadParams.extend({ agentId: leadParams.shape.id }),
        response: { 200: leadFit },
      },
    },
    (request) =>
      leadFitForAgent(app.database.readDb, app.config, request.params.id, request.params.agentId),
  );

  app.get(
    '/api/admin/leads/unfit-reasons',
    { ...admin, schema: { response: { 200: unfitReasons } } },
    () => unfitNewLeads(app.database.readDb, app.config),
  );
};
