import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analytics } from '../../../shared/contracts/admin';
import { periodQuery, sourceStats, speedToLead } from '../../../shared/contracts/analytics';
import { requireRole } from '../../plugins/auth';
import { getAnalytics } from './analytics.service';
import {
  sourceStats as readSourceStats,
  speedToLead as readSpeedToLead,
} from './speed-and-sources.service';

/** The admin's analytics screen: totals, speed to lead, the sources' figures. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { onRequest: requireRole('ADMIN') };

  app.get(
    '/api/admin/analytics',
    { ...admin, schema: { querystring: periodQuery, response: { 200: analytics } } },
    (request) => getAnalytics(app.database.readDb, app.config.BUSINESS_TZ, request.query),
  );

  app.get(
    '/api/admin/analytics/speed-to-lead',
    { ...admin, schema: { querystring: periodQuery, response: { 200: speedToLead } } },
    (request) => readSpeedToLead(app.database.readDb, app.config.BUSINESS_TZ, request.query),
  );

  app.get(
    '/api/admin/analytics/sources',
    { ...admin, schema: { querystring: periodQuery, response: { 200: sourceStats } } },
    (request) => readSourceStats(app.database.readDb, app.config.BUSINESS_TZ, request.query),
  );
};
