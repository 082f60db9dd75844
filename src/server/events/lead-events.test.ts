import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { createLeadEvents } from './lead-events';

const tx = {} as Db;

describe('the lead-event bus', () => {
  it('runs the handlers one after another, in order, with the emitter’s tx', async () => {
    const events = createLeadEvents();
    const seen: string[] = [];
    events.on('leadsAssigned', async (t, payload) => {
      expect(t).toBe(tx);
      await new Promise((r) => setTimeout(r, 10));
      seen.push(`a:${JSON.stringify(payload)}`);
    });
    events.on('leadsAssigned', async () => {
      seen.push('b');
    });
    await events.emit(tx, 'leadsAssigned', { runId: 7 });
    expect(seen).toEqual(['a:{"runId":7}', 'b']);
  });

  it('throws the first error and runs no later handler (the transaction rolls back)', async () => {
    const events = createLeadEvents();
    let later = false;
    events.on('leadsAssigned', async () => {
      throw new Error('no');
    });
    events.on('leadsAssigned', async () => {
      later = true;
    });
    await expect(events.emit(tx, 'leadsAssigned', { leadIds: [1] })).rejects.toThrow('no');
    expect(later).toBe(false);
  });

  it('keeps each bus’s handlers to itself', async () => {
    const one = createLeadEvents();
    const two = createLeadEvents();
    let calls = 0;
    one.on('leadsAssigned', async () => {
      calls++;
    });
    await two.emit(tx, 'leadsAssigned', { leadIds: [1] });
    expect(calls).toBe(0);
  });
});
