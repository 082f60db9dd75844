import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppConfig } from './config/env';
import type { Database } from './db/client';
import { createLeadPorts, type LeadPorts } from './events/handlers';
import { type AssignmentScheduler, startAssignmentScheduler } from './jobs/assignment-scheduler';
import { type LeadSearchIndexer, startLeadSearchIndexer } from './jobs/lead-search-indexer';
import { createPgBossQueue, type JobQueueOptions } from './jobs/pg-boss-queue';
import { settleAbandonedImportsAtStart } from './jobs/settle-abandoned-imports';
import { httpDuration, setGaugeSources } from './lib/metrics';
import { adminAgenciesRoutes } from './modules/agencies/agencies-admin.routes';
import { agencyRoutes } from './modules/agencies/agency.routes';
import { agencyInviteRoutes } from './modules/agencies/agency-invites.routes';
import { agencyInviteUsable, joinWithCode } from './modules/agencies/agency-invites.service';
import { NO_SEATS } from './modules/agencies/agency-seats';
import { adminAgentsRoutes } from './modules/agents/agents-admin.routes';
import { alertsRoutes } from './modules/alerts/alerts.routes';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { assignAfterImport } from './modules/assignment/assign-after-import';
import { assignmentRoutes } from './modules/assignment/assignment.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { auditHookPlugin } from './modules/audit/audit-hook';
import { authRoutes } from './modules/auth/auth.routes';
import { findSession } from './modules/auth/auth.service';
import { authAdminRoutes } from './modules/auth/auth-admin.routes';
import { startSessionSweeper } from './modules/auth/session-sweeper';
import { adminUsersRoutes } from './modules/auth/users-admin.routes';
import { createBilling } from './modules/billing/billing.service';
import { billingAgentRoutes } from './modules/billing/billing-agent.routes';
import { stripeWebhookRoutes } from './modules/billing/stripe-webhook.routes';
import { callsRoutes } from './modules/calls/calls.routes';
import { voiceCallbackRoutes } from './modules/calls/voice-callbacks.routes';
import { deliveryAdminRoutes } from './modules/delivery/delivery-admin.routes';
import { deliveryAgentRoutes } from './modules/delivery/delivery-agent.routes';
import type { DeliveryRuntime } from './modules/delivery/delivery-runtime';
import { dncRoutes } from './modules/dnc/dnc.routes';
import { explanationRoutes } from './modules/explanation/explanation.routes';
import {
  createExplainedAgents,
  newLeadGroupsUnfitBy,
} from './modules/explanation/explanation.service';
import { createFitRoster } from './modules/fit/fit-roster.service';
import { followUpRoutes } from './modules/follow-ups/follow-ups.routes';
import { smsCallbackRoutes } from './modules/follow-ups/sms-callbacks.routes';
import { healthRoutes } from './modules/health/health.routes';
import { jobQueueBacklog } from './modules/health/health.service';
import { metricsRoutes } from './modules/health/metrics.routes';
import { importsRoutes } from './modules/imports/imports.routes';
import { intakeRoutes } from './modules/intake/intake.routes';
import { adminLeadsRoutes } from './modules/leads/leads-admin.routes';
import { agentLeadsRoutes } from './modules/leads/leads-agent.routes';
import { leadsExportRoutes } from './modules/leads/leads-export.routes';
import { legalRoutes } from './modules/legal/legal.routes';
import { licencesRoutes } from './modules/licences/licences.routes';
import { type LiveEvents, startLiveEvents } from './modules/notifications/live-events';
import { liveEventsRoutes } from './modules/notifications/live-events.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { packagesRoutes } from './modules/packages/packages.routes';
import { agentPauseRoutes } from './modules/pause/pause.routes';
import { preferencesRoutes } from './modules/preferences/preferences.routes';
import { privacyRoutes } from './modules/privacy/privacy.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { pushRoutes } from './modules/push/push.routes';
import { keyPair } from './modules/push/push.service';
import { adminReturnsRoutes } from './modules/returns/returns-admin.routes';
import { agentReturnsRoutes } from './modules/returns/returns-agent.routes';
import { agentScheduleRoutes } from './modules/schedule/schedule.routes';
import { sourcesRoutes } from './modules/sources/sources.routes';
import { adminStatsRoutes } from './modules/stats/stats-admin.routes';
import { agentStatsRoutes } from './modules/stats/stats-agent.routes';
import { adminSubscriptionRoutes } from './modules/subscriptions/subscriptions-admin.routes';
import { agentSubscriptionRoutes } from './modules/subscriptions/subscriptions-agent.routes';
import { walletRoutes } from './modules/wallet/wallet.routes';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { openApiPlugin } from './plugins/openapi';
import { DEFAULT_BODY_LIMIT, requestBodyPlugin } from './plugins/request-body';
import { requestTargetPlugin } from './plugins/request-target';
import { securityPlugin } from './plugins/security';
import { spaPlugin } from './plugins/spa';

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** serve the built SPA from dist/ (off in API tests) */
  serveSpa?: boolean;
  /**
   * the job queue's options and delivery's timings (tests shorten them; enabled: false leaves
   * the queue off)
   */
  deliveryQueue?: JobQueueOptions & Partial<DeliveryRuntime>;
}

/**
 * How long a client may take (SECURITY.md): the whole request, its headers, and silence on the
 * connection. Node checks the first two every connectionsCheckingInterval, so it is a fraction of
 * the shortest, to cut a request off close to its deadline.
 */
function serverTimeouts(config: AppConfig) {
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    http: {
      // set here too: node checks headersTimeout <= requestTimeout when it creates the server
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.max(100, Math.floor(config.HEADERS_TIMEOUT_MS / 4)),
      ),
    },
  };
}

/** An X-Request-Id a trusted proxy may hand on: short, and nothing a log line could be forged with. */
const FORWARDED_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Builds the Fastify app without listening: used by server.ts and by the tests. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const role = opts.config.PROCESS_ROLE;
  // docs/OPERATIONS.md: a web process serves the API, a worker process the background work
  const servesApi = role !== 'worker';
  const runsWorkers = role !== 'web';
  const app = Fastify({
    logger: opts.logger ?? false,
    // every log line of a request and every 5xx answer carries its id (plugins/errors): unique
    // across processes, or the load balancer's when it is trusted (TRUST_PROXY) to send one
    genReqId: (req) => {
      const forwarded = req.headers['x-request-id'];
      return opts.config.TRUST_PROXY &&
        typeof forwarded === 'string' &&
        FORWARDED_REQUEST_ID.test(forwarded)
        ? forwarded
        : randomUUID();
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    ...serverTimeouts(opts.config),
    trustProxy: opts.config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', opts.config);
  app.decorate('database', opts.database);
  app.decorate('db', opts.database.db);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // GET /metrics: each answer's time by route pattern (never the raw URL: bounded labels)
  app.addHook('onResponse', async (request, reply) => {
    httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  setGaugeSources({
    queues: () => jobQueueBacklog(opts.database.db),
    pools: () =>
      (
        [
          ['main', opts.database.pool],
          ['read', opts.database.readPool],
        ] as const
      ).flatMap(([pool, p]) =>
        p
          ? [
              {
                pool,
                size: p.options.max,
                inUse: p.totalCount - p.idleCount,
                waiting: p.waitingCount,
              },
            ]
          : [],
      ),
  });
  await app.register(errorsPlugin);
  await app.register(requestTargetPlugin);
  await app.register(securityPlugin, { secure: opts.config.COOKIE_SECURE });
  await app.register(requestBodyPlugin);
  await app.register(authPlugin, {
    findSession: (token, policy) => findSession(opts.database.db, token, policy),
  });
  // the audit log's record of every write by an admin or an agency's owner or manager
  // (docs/domain.md, Audit log): before the routes, so that it sees them all
  await app.register(auditHookPlugin);

  // background work that lives with the app: the admin search's indexer, settling imports
  // a crashed process left RUNNING
  const searchIndexer = servesApi ? startLeadSearchIndexer(app) : null;
  if (servesApi) settleAbandonedImportsAtStart(app);
  if (runsWorkers) startSessionSweeper(app);
  // the ports the modules are given (docs/ARCHITECTURE.md, "Events, jobs and ports"): the job
  // queue (pg-boss in the same database), email, and the lead-event bus whose handlers
  // (notifications, deliveries, follow-ups) events/handlers.ts registers, once, here
  const { enabled, pollingIntervalSeconds, sweepIntervalMs, concurrency, ...runtime } =
    opts.deliveryQueue ?? {};
  const queue = createPgBossQueue(opts.database, app.log, {
    enabled,
    pollingIntervalSeconds,
    sweepIntervalMs,
    concurrency,
    workers: runsWorkers,
    stopTimeoutMs: opts.config.SHUTDOWN_GRACE_MS,
  });
  const leadPorts = createLeadPorts(opts.config, queue.port, runtime);
  app.decorate('leadPorts', leadPorts);
  // the VAPID key pair, made at first start when the environment gives none (modules/push):
  // asked for now, not waited for, so that a server whose database is away still starts (and
  // answers 503 on /api/health); the first push or key request asks again
  keyPair(opts.database.db, leadPorts.push).catch((err) =>
    app.log.warn({ err }, 'the push key pair could not be read yet'),
  );
  const { events } = leadPorts;
  // Stripe Billing (docs/domain.md, Billing), when configured: subscribing goes through Checkout
  const billing = createBilling(opts.database.db, opts.config, (err, message) =>
    app.log.warn({ err }, message),
  );
  await queue.start({
    db: opts.database.db,
    ...leadPorts,
    agencySeats: billing?.seats ?? null,
    walletRecharge: billing?.wallet ?? null,
  });
  // the daily assignment run (ASSIGNMENT_SCHEDULE), where the workers run
  let scheduler: AssignmentScheduler | null = null;
  if (runsWorkers && opts.config.SCHEDULER) {
    app.addHook('onReady', async () => {
      scheduler = startAssignmentScheduler({
        db: opts.database.db,
        config: opts.config,
        events,
        log: app.log,
      });
    });
  }
  app.addHook('onClose', async () => {
    await scheduler?.stop();
    await queue.stop();
    // a delivery still running past the grace renews its lease no more: another process takes
    // it over (decision 040), as after a crash
    leadPorts.delivery.leases.stop();
    leadPorts.delivery.connections.close();
  });
  app.decorate('processState', {
    role,
    queueRunning: () => queue.running,
    workersExpected: runsWorkers && enabled !== false,
  });
  // the process's one LISTEN for live events (docs/domain.md, Delivery of assigned leads); open streams end before the server
  // waits for its connections to close
  const live = servesApi ? await startLiveEvents(opts.database, app.log) : null;
  if (live) {
    app.addHook('preClose', async () => live.endStreams());
    app.addHook('onClose', async () => {
      await live.close();
    });
  }

  // the API's OpenAPI document and reference: before the routes, so that it sees them all
  await app.register(openApiPlugin);

  // the route table: one plugin per entity and role (docs/ARCHITECTURE.md); a worker process
  // answers its health and metrics only
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  if (servesApi)
    await registerApiRoutes(app, opts, { events, leadPorts, billing, live, searchIndexer });
  await app.register(spaPlugin, { enabled: servesApi && (opts.serveSpa ?? true) });
  return app;
}

interface ApiParts {
  events: LeadPorts['events'];
  leadPorts: LeadPorts;
  billing: ReturnType<typeof createBilling>;
  live: LiveEvents | null;
  searchIndexer: LeadSearchIndexer | null;
}

/** The API's routes: in the processes that serve it (PROCESS_ROLE all or web). */
async function registerApiRoutes(
  app: FastifyInstance,
  opts: BuildAppOptions,
  { events, leadPorts, billing, live, searchIndexer }: ApiParts,
): Promise<void> {
  await app.register(authRoutes, {
    email: leadPorts.email,
    agencyInvites: { usable: agencyInviteUsable, join: joinWithCode },
  });
  await app.register(authAdminRoutes);
  await app.register(adminUsersRoutes);
  await app.register(packagesRoutes);
  await app.register(adminStatsRoutes);
  await app.register(agentStatsRoutes);
  // the NEW leads that fit no agent for a reason: the assignment module's explanation
  await app.register(adminLeadsRoutes, {
    unfitGroups: (reason) => newLeadGroupsUnfitBy(opts.database.readDb, opts.config, reason),
  });
  await app.register(agentLeadsRoutes);
  await app.register(leadsExportRoutes);
  await app.register(importsRoutes, {
    afterCommit: () => searchIndexer?.kick(),
    onImported: assignAfterImport(opts.database.db, opts.config, events),
  });
  await app.register(assignmentRoutes, { events });
  // the explanation's copy of every agent's fit columns, where it reads (decision 044); the change
  // rows are folded only over the primary (a replica is read-only)
  const explainedAgents = createExplainedAgents(opts.database.readDb, {
    fold: opts.database.readDb === opts.database.db,
    onError: (err) => app.log.error({ err }, 'explanation: could not read the agents'),
  });
  await app.register(explanationRoutes, { agents: explainedAgents });
  await app.register(adminAgentsRoutes);
  await app.register(licencesRoutes);
  await app.register(agentPauseRoutes);
  await app.register(agentScheduleRoutes);
  await app.register(agentReturnsRoutes);
  await app.register(adminReturnsRoutes, { events, email: leadPorts.email });
  await app.register(adminSubscriptionRoutes);
  await app.register(agentSubscriptionRoutes, { billing });
  await app.register(billingAgentRoutes, { billing });
  await app.register(stripeWebhookRoutes, { billing });
  // pay per lead: the wallets, topped up through Stripe when it is set up (docs/domain.md, The wallet)
  await app.register(walletRoutes, { payments: billing?.wallet ?? null });
  // agencies and their downlines (docs/domain.md, Agencies); the packages an agency pays are
  // billed through the seats port
  const seats = billing?.seats ?? NO_SEATS;
  await app.register(agencyRoutes, { events, seats });
  await app.register(agencyInviteRoutes);
  await app.register(adminAgenciesRoutes, { seats });
  await app.register(preferencesRoutes);
  await app.register(analyticsRoutes);
  await app.register(deliveryAgentRoutes, { delivery: leadPorts.delivery });
  await app.register(deliveryAdminRoutes, { delivery: leadPorts.delivery });
  await app.register(sourcesRoutes);
  await app.register(dncRoutes);
  await app.register(legalRoutes);
  // the audit log, read only (docs/domain.md, Audit log)
  await app.register(auditRoutes);
  // consumer deletion (docs/domain.md, Consumer deletion and retention)
  await app.register(privacyRoutes, { privacy: leadPorts.delivery });
  // the intake's copy of the agents' fit columns, read again when they change (decision 043)
  const roster = createFitRoster(opts.database.db, (err) =>
    app.log.error({ err }, 'fit roster: could not read the agents'),
  );
  await app.register(intakeRoutes, { events, roster });
  await app.register(notificationsRoutes);
  if (live) await app.register(liveEventsRoutes, { live });
  // follow-up messages and calls through Twilio (docs/domain.md, Follow-up messages and calls), and the provider's signed callbacks
  await app.register(profileRoutes);
  await app.register(followUpRoutes);
  await app.register(pushRoutes, { push: leadPorts.push });
  await app.register(alertsRoutes, { alerts: leadPorts.alerts });
  await app.register(callsRoutes);
  await app.register(smsCallbackRoutes);
  await app.register(voiceCallbackRoutes);
}
