import type { UserRole } from '../shared/domain';
import type { AppConfig } from './config/env';
import type { Database, Db } from './db/client';

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  role: UserRole;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
    db: Db;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionTokenHash: string | null;
  }
}
