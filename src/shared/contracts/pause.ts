/** The agent's pause (docs/domain.md, Pause). */
import { z } from 'zod';

const businessDateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD');

/** PUT /api/agent/pause: a business date (paused through it) or null (until resumed). */
export const pauseBody = z.object({ until: businessDateString.nullable() });

/** GET/PUT/DELETE /api/agent/pause: the agent's pause now. */
export const pauseState = z.object({
  paused: z.boolean(),
  /** when the pause began */
  since: z.string().nullable(),
  /** the last business date paused; null while paused: until resumed */
  until: z.string().nullable(),
});
export type PauseState = z.infer<typeof pauseState>;
