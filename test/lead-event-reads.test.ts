/**
 * The lead-event bus's reads (docs/ARCHITECTURE.md, "Events, jobs and ports"): the handlers that
 * read before they write have their reads asked together, in one statement on the emitter's
 * transaction, each handler given its own rows; the reads see the assignment, not what an
 * earlier handler wrote.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { createLeadEvents } from '../src/server/events/lead-events';
import { setupTestApp } from './support/test-app';

const ctx = setupTestApp();

describe('the handlers’ reads', () => {
  it('gives each handler its own rows, asked before the first handler writes', async () => {
    const events = createLeadEvents();
    const seen: Record<string, unknown> = {};
    // a plain handler that writes first
    events.on('leadsAssigned', async (tx) => {
      await tx.execute(sql`insert into bus_notes values ('written')`);
    });
    events.onRead(
      'leadsAssigned',
      (assigned) =>
        'leadIds' in assigned
          ? sql`select n::int as id, 'lead ' || n as name from unnest(${`{${assigned.leadIds.join(',')}}`}::int[]) n`
          : null,
      async (_tx, _assigned, rows: { id: number; name: string }[] | undefined) => {
        seen.leads = rows;
      },
    );
    // the read was asked before the first handler wrote: it saw no note
    events.onRead(
      'leadsAssigned',
      () => sql`select note from bus_notes`,
      async (tx, _assigned, rows: { note: string }[] | undefined) => {
        seen.notesRead = rows;
        seen.notesNow = await queryRows(tx, sql`select note from bus_notes`);
      },
    );
    events.onRead(
      'leadsAssigned',
      () => null,
      async (_tx, _assigned, rows: unknown[] | undefined) => {
        seen.none = rows;
      },
    );
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table bus_notes (note text) on commit drop`);
      await events.emit(tx, 'leadsAssigned', { leadIds: [7, 9] });
    });
    expect(seen).toEqual({
      leads: [
        { id: 7, name: 'lead 7' },
        { id: 9, name: 'lead 9' },
      ],
      notesRead: [],
      notesNow: [{ note: 'written' }],
      none: undefined,
    });
  });
});
