import type { AssignmentRun } from '../../../shared/contracts/admin';
import type { Db } from '../../db/client';
import { listRuns } from './assignment.repository';

/** The engine's recent runs, newest first. */
export function listRecentRuns(db: Db, limit: number): Promise<AssignmentRun[]> {
  return listRuns(db, limit);
}
