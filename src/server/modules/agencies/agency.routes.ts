import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agencyLead,
  agencyLeadPage,
  agencyLeadParams,
  agencyLeadsQuery,
  agencyMember,
  agencyMemberList,
  createAgencyBody,
  memberParams,
  memberSubscriptionAnswer,
  memberSubscriptionBody,
  myAgency,
  reassignAgencyLeadBody,
  updateAgencyBody,
  updateMemberBody,
} from '../../../shared/contracts/agency';
import type { LeadEvents } from '../../events/lead-events';
import { currentUser, requireRole } from '../../plugins/auth';
import { releaseDepartingMember } from '../reclaim/agency-leave.service';
import {
  changeMember,
  createAgency,
  editAgency,
  myAgency as findMyAgency,
  leaveAgency,
  type MemberRelease,
  removeMember,
} from './agencies.service';
import {
  agencyBook,
  agencyMemberAsOwner,
  agencyMembers,
  reassignAgencyLead,
} from './agency-book.service';
import { endMemberPackage, payMemberPackage } from './agency-payments.service';
import type { AgencySeats } from './agency-seats';

/**
 * An agency as its members use it (docs/domain.md, Agencies): the agency, its members, its book
 * and the packages it pays. Every route is an agent's; what each member may see or do is decided
 * by the service from their role in the agency.
 */
export const agencyRoutes: FastifyPluginAsyncZod<{
  events: LeadEvents;
  seats: AgencySeats;
}> = async (app, { events, seats }) => {
  // a departing member's uncontacted leads go to the others (docs/domain.md, Agencies)
  const release: MemberRelease = (db, input, inTransaction) =>
    releaseDepartingMember(db, { config: app.config, events }, input, inTransaction);
  const agent = { onRequest: requireRole('AGENT') };
  const tz = app.config.BUSINESS_TZ;
  const none = { 204: z.null() };

  app.post(
    '/api/agency',
    { ...agent, schema: { body: createAgencyBody, response: { 201: myAgency } } },
    async (request, reply) => {
      const answer = await createAgency(app.db, currentUser(request).id, request.body.name);
      return reply.status(201).send(answer);
    },
  );

  app.get('/api/agency', { ...agent, schema: { response: { 200: myAgency } } }, (request) =>
    findMyAgency(app.db, currentUser(request).id),
  );

  app.patch(
    '/api/agency',
    { ...agent, schema: { body: updateAgencyBody, response: { 200: myAgency } } },
    (request) => editAgency(app.db, currentUser(request).id, request.body),
  );

  app.delete(
    '/api/agency/membership',
    { ...agent, schema: { response: none } },
    async (request, reply) => {
      await leaveAgency(app.db, seats, release, currentUser(request).id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/agency/members',
    { ...agent, schema: { response: { 200: agencyMemberList } } },
    (request) => agencyMembers(app.db, tz, currentUser(request).id),
  );

  app.patch(
    '/api/agency/members/:userId',
    {
      ...agent,
      schema: { params: memberParams, body: updateMemberBody, response: { 200: agencyMember } },
    },
    async (request) => {
      const { userId } = request.params;
      const agencyId = await changeMember(app.db, currentUser(request).id, userId, request.body);
      return agencyMemberAsOwner(app.db, tz, agencyId, userId);
    },
  );

  app.delete(
    '/api/agency/members/:userId',
    { ...agent, schema: { params: memberParams, response: none } },
    async (request, reply) => {
      await removeMember(app.db, seats, release, currentUser(request).id, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/api/agency/members/:userId/subscription',
    {
      ...agent,
      schema: {
        params: memberParams,
        body: memberSubscriptionBody,
        response: { 200: memberSubscriptionAnswer },
      },
    },
    (request) =>
      payMemberPackage(
        app.db,
        seats,
        tz,
        currentUser(request).id,
        request.params.userId,
        request.body.packageId,
      ),
  );

  app.delete(
    '/api/agency/members/:userId/subscription',
    { ...agent, schema: { params: memberParams, response: { 200: agencyMember } } },
    (request) =>
      endMemberPackage(app.db, seats, tz, currentUser(request).id, request.params.userId),
  );

  app.get(
    '/api/agency/leads',
    { ...agent, schema: { querystring: agencyLeadsQuery, response: { 200: agencyLeadPage } } },
    (request) => agencyBook(app.db, currentUser(request).id, request.query),
  );

  app.post(
    '/api/agency/leads/:id/reassign',
    {
      ...agent,
      schema: {
        params: agencyLeadParams,
        body: reassignAgencyLeadBody,
        response: { 200: agencyLead },
      },
    },
    (request) =>
      reassignAgencyLead(
        app.db,
        events,
        { timeZone: tz, windows: app.config.ENROLLMENT_WINDOWS },
        currentUser(request).id,
        request.params.id,
        request.body.userId,
      ),
  );
};
