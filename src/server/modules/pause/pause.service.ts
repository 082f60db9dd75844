/** Pause / vacation (docs/domain.md, Pause): a paused agent gets nothing from any trigger. */
import type { PauseState } from '../../../shared/contracts/pause';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { businessDate } from '../../lib/business-time';
import { clearPause, writePause } from '../auth/auth.service';
import { type PauseRow, readPause } from './pause.repository';

function toState(row: PauseRow): PauseState {
  if (!row.paused || row.since === null) return { paused: false, since: null, until: null };
  return { paused: true, since: new Date(row.since).toISOString(), until: row.through };
}

export async function pauseOf(db: Db, agentId: number, timeZone: string): Promise<PauseState> {
  return toState(await readPause(db, agentId, timeZone));
}

/** `until`: the last business date paused (today or later), or null for "until I resume". */
export async function pauseDeliveries(
  db: Db,
  agentId: number,
  until: string | null,
  timeZone: string,
  now: Date = new Date(),
): Promise<PauseState> {
  if (until !== null) {
    const parsed = new Date(`${until}T00:00:00Z`);
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== until) {
      throw new AppError('BAD_REQUEST', 'Pick a real date', {}, [
        { field: 'until', message: 'Pick a real date' },
      ]);
    }
    if (until < businessDate(timeZone, now)) {
      throw new AppError('BAD_REQUEST', 'The pause cannot end in the past', {}, [
        { field: 'until', message: 'Pick today or a later date' },
      ]);
    }
  }
  await writePause(db, agentId, until, timeZone);
  return pauseOf(db, agentId, timeZone);
}

export async function resumeDeliveries(
  db: Db,
  agentId: number,
  timeZone: string,
): Promise<PauseState> {
  await clearPause(db, agentId);
  return pauseOf(db, agentId, timeZone);
}
