import { describe, expect, it } from 'vitest';
import type { AssignmentRun } from '../../../shared/contracts/admin';
import { assignmentStatus, channelStatus, databaseStatus, type Health } from './system-status';

const run: AssignmentRun = {
  id: 7,
  trigger: 'SCHEDULE',
  businessDate: '2025-03-03',
  eligibleAgents: 4,
  candidateLeads: 30,
  assigned: 12,
  durationMs: 40,
  error: null,
  startedAt: '2025-03-03T13:00:00.000Z',
};
const health = (over: Partial<Health> = {}): Health => ({
  status: 'ok',
  database: 'ok',
  lastAssignmentRun: run,
  ...over,
});
const at = (iso: string) => `at ${iso}`;

describe('databaseStatus', () => {
  it('is operational only when the health check reached the database', () => {
    expect(databaseStatus(health(), false).label).toBe('Operational');
    expect(databaseStatus(health({ database: 'down', status: 'degraded' }), false)).toMatchObject({
      label: 'Unavailable',
      tone: 'error',
    });
    expect(databaseStatus(undefined, true).tone).toBe('error');
    expect(databaseStatus(undefined, false).tone).toBe('unknown');
  });
});

describe('assignmentStatus', () => {
  it('is operational when the last run had no error, and says what it did', () => {
    expect(assignmentStatus(health(), false, at)).toEqual({
      label: 'Operational',
      tone: 'ok',
      detail: 'Last run at 2025-03-03T13:00:00.000Z: 12 leads assigned',
    });
  });
  it('reports the error of a failed last run', () => {
    const failed = health({ lastAssignmentRun: { ...run, error: 'lock timeout' } });
    expect(assignmentStatus(failed, false, at)).toEqual({
      label: 'Failed',
      tone: 'error',
      detail: 'Last run at 2025-03-03T13:00:00.000Z: lock timeout',
    });
  });
  it('labels the time of the last run with the business time zone, by default New York', () => {
    expect(assignmentStatus(health(), false).detail).toBe(
      'Last run 3/3/2025, 8:00 AM ET: 12 leads assigned',
    );
    // once the server names its zone, the time is read there
    expect(assignmentStatus(health({ businessTimeZone: 'America/Denver' }), false).detail).toBe(
      'Last run 3/3/2025, 6:00 AM MT: 12 leads assigned',
    );
  });
  it("says 'No run yet' before the first run, and never 'Operational' without data", () => {
    expect(assignmentStatus(health({ lastAssignmentRun: null }), false).label).toBe('No run yet');
    expect(assignmentStatus(undefined, true).label).toBe('Unknown');
    expect(assignmentStatus(undefined, false).label).toBe('Checking...');
  });
});

describe('channelStatus', () => {
  const channels = (over: Partial<NonNullable<Health['channels']>> = {}) => ({
    email: 'OPERATIONAL' as const,
    webhook: 'NOT_CONFIGURED' as const,
    backlog: { pending: 0, oldestSeconds: null },
    ...over,
  });
  it('says what the health check found for each channel', () => {
    expect(channelStatus(health({ channels: channels() }), false, 'email')).toEqual({
      label: 'Operational',
      tone: 'ok',
      detail: 'Nothing waiting',
    });
    expect(channelStatus(health({ channels: channels() }), false, 'webhook')).toMatchObject({
      label: 'Not configured',
      tone: 'unknown',
    });
    expect(
      channelStatus(health({ channels: channels({ webhook: 'FAILING' }) }), false, 'webhook'),
    ).toMatchObject({
      label: 'Failing',
      tone: 'error',
      detail: expect.stringMatching(/Deliveries/),
    });
    expect(
      channelStatus(
        health({ channels: channels({ backlog: { pending: 1250, oldestSeconds: 600 } }) }),
        false,
        'email',
      ).detail,
    ).toBe('1,250 deliveries waiting, the oldest for 10 min');
  });
  it('shows Twilio (Follow-up Messages, Call Recording): not configured, operational, failing', () => {
    const off = health({ channels: channels({ sms: 'NOT_CONFIGURED', voice: 'NOT_CONFIGURED' }) });
    expect(channelStatus(off, false, 'sms')).toMatchObject({
      label: 'Not configured',
      tone: 'unknown',
      detail: expect.stringMatching(/TWILIO_ACCOUNT_SID/),
    });
    const on = health({ channels: channels({ sms: 'OPERATIONAL', voice: 'FAILING' }) });
    expect(channelStatus(on, false, 'sms')).toEqual({
      label: 'Operational',
      tone: 'ok',
      detail: 'Follow-up SMS go through Twilio',
    });
    expect(channelStatus(on, false, 'voice')).toMatchObject({ label: 'Failing', tone: 'error' });
    // a server from before these channels
    expect(channelStatus(health({ channels: channels() }), false, 'voice').tone).toBe('unknown');
  });
  it('is unknown while loading, after a failed load, and with the database down', () => {
    expect(channelStatus(undefined, false, 'email').label).toBe('Checking...');
    expect(channelStatus(undefined, true, 'email').tone).toBe('unknown');
    expect(
      channelStatus(health({ database: 'down', status: 'degraded' }), false, 'email'),
    ).toMatchObject({
      label: 'Unknown',
    });
  });
});
