import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/client';
import type { LeadEvents } from '../../events/lead-events';
import type { OnImported } from '../imports/imports.service';
import { runAssignment } from './run-assignment.service';

/**
 * The import's hook (ASSIGN_ON_IMPORT): leads that arrive mid-day go out at once to agents with
 * quota left. Answers the run's count; null when the engine is off for imports. A failed run is
 * recorded by the engine and thrown here, so the import answers `assigned: null`.
 */
export function assignAfterImport(
  db: Db,
  config: Pick<AppConfig, 'ASSIGN_ON_IMPORT' | 'BUSINESS_TZ' | 'ENROLLMENT_WINDOWS'>,
  events: LeadEvents,
): OnImported {
  return async () => {
    if (!config.ASSIGN_ON_IMPORT) return null;
    const run = await runAssignment(db, config, { trigger: 'IMPORT', events });
    if (!run) return null;
    if (run.error !== null) throw new Error(`assignment run #${run.id} failed: ${run.error}`);
    return run.assigned;
  };
}
