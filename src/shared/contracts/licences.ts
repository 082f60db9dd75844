/** An agent's licensed states (docs/domain.md, Licensed states). */
import { z } from 'zod';
import { STATE_CODES } from '../domain';

/** PUT /api/admin/agents/{id}/licenses; empty: not restricted */
export const licensesBody = z.object({
  states: z.array(z.enum(STATE_CODES as [string, ...string[]])).max(60),
});
