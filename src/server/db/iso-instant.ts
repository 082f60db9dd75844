import { type SQL, sql } from 'drizzle-orm';

/** A timestamptz column as an ISO instant in UTC (`2026-11-27T08:35:15.000Z`), null kept. */
export const isoInstant = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
