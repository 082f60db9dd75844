import type { AccountApproval, UserRole } from '../shared/domain';
import type { AppConfig } from './config/env';
import type { Database, Db } from './db/client';
import type { LeadPorts } from './events/handlers';

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: UserRole;
  /** docs/domain.md, Accounts: only an APPROVED agent reaches the agent's routes */
  approval: AccountApproval;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
    db: Db;
    /**
     * The app's lead-event bus and the ports its handlers were given (events/handlers.ts): for
     * what runs beside the app (the scheduler in server.ts, the tests). Routes get theirs as
     * plugin options.
     */
    leadPorts: LeadPorts;
    /** what this process runs (PROCESS_ROLE), for /api/health/ready */
    processState: {
      role: AppConfig['PROCESS_ROLE'];
      /** pg-boss is up (every role writes jobs; all and worker run them) */
      queueRunning(): boolean;
      /** this process is meant to run the queue's workers */
      workersExpected: boolean;
    };
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionTokenHash: string | null;
    /** when the session ends unless another request comes first (its idle or absolute expiry) */
    sessionEndsAt: Date | null;
    /**
     * the signed-in user must turn two factors on before anything else (REQUIRE_2FA_FOR_ADMINS):
     * every route but the setup's answers 403 (plugins/auth)
     */
    twoFactorSetupRequired: boolean;
  }
}
