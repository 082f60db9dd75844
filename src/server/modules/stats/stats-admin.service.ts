import type { AdminStats } from '../../../shared/contracts/admin';
import type { Db } from '../../db/client';
import { adminStats } from './stats-admin.repository';

/** The admin dashboard's figures (all of them counted by the database). */
export function getAdminStats(db: Db): Promise<AdminStats> {
  return adminStats(db);
}
