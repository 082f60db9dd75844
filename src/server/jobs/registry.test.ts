import { describe, expect, it } from 'vitest';
import { workBatch } from './pg-boss-queue';
import { JOB_PAYLOADS, JOBS, type JobContext } from './registry';

const quiet = { error: () => {} };

describe('the job registry', () => {
  it('reads a payload written without a version as v1', () => {
    expect(JOB_PAYLOADS['lead-follow-up'].parse({ messageId: 3 })).toEqual({ v: 1, messageId: 3 });
    expect(JOB_PAYLOADS['lead-delivery-fan-out'].parse({ runId: 9 })).toEqual({ v: 1, runId: 9 });
    expect(
      JOB_PAYLOADS['lead-delivery'].parse({ agentId: 1, channel: 'EMAIL', fromId: 1, toId: 4 }),
    ).toEqual({ v: 1, agentId: 1, channel: 'EMAIL', fromId: 1, toId: 4 });
  });

  it('refuses an unknown version', () => {
    expect(JOB_PAYLOADS['lead-follow-up'].safeParse({ v: 2, messageId: 3 }).success).toBe(false);
  });

  it('lists a queue and a handler for every payload', () => {
    expect(Object.keys(JOBS).sort()).toEqual(Object.keys(JOB_PAYLOADS).sort());
  });

  it('fails a job whose payload does not parse, with the reason, without calling its handler', async () => {
    // a fan-out written on the batch queue before the registry: not guessed to be a fan-out
    const results = await workBatch(
      'lead-delivery',
      [{ id: 'j1', data: { runId: 5 } }],
      {} as JobContext,
      quiet,
    );
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ id: 'j1', status: 'failed' });
    const message = (results[0] as { output: { message: string } }).output.message;
    expect(message).toMatch(/^lead-delivery: payload refused: /);
    expect(message).toMatch(/agentId/);
  });
});
