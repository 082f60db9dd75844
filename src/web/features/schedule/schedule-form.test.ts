import { describe, expect, it } from 'vitest';
import { capsBody, capsForm, scheduleBody, scheduleForm } from './schedule-form';

describe('the schedule form', () => {
  it('starts from a working week in the business zone when none is saved', () => {
    const form = scheduleForm({ timeZone: null, days: null }, 'America/New_York');
    expect(form.timeZone).toBe('America/New_York');
    const body = scheduleBody(form);
    expect(body.days.mon).toEqual({ start: '09:00', end: '17:00' });
    expect(body.days.sat).toBeNull();
    expect(body.days.sun).toBeNull();
  });

  it('shows a saved schedule and sends it back unchanged', () => {
    const saved = {
      timeZone: 'Asia/Tokyo',
      days: {
        mon: { start: '08:00', end: '24:00' },
        tue: null,
        wed: { start: '00:00', end: '12:30' },
        thu: null,
        fri: null,
        sat: { start: '10:00', end: '14:00' },
        sun: null,
      },
    };
    expect(scheduleBody(scheduleForm(saved, 'UTC'))).toEqual(saved);
  });

  it('a day switched off is null; the time zone is trimmed', () => {
    const form = scheduleForm(undefined, ' UTC ');
    form.days.mon.on = false;
    const body = scheduleBody(form);
    expect(body.days.mon).toBeNull();
    expect(body.timeZone).toBe('UTC');
  });
});

describe('the caps form', () => {
  it('blank is none; the budget is shown and sent in dollars and cents', () => {
    const form = capsForm({ daily: 3, weekly: null, monthly: 40, monthlyBudgetCents: 15050 });
    expect(form).toEqual({ daily: '3', weekly: '', monthly: '40', monthlyBudgetCents: '150.50' });
    expect(capsBody(form)).toEqual({
      body: { daily: 3, weekly: null, monthly: 40, monthlyBudgetCents: 15050 },
    });
    expect(capsBody({ ...form, monthlyBudgetCents: '$200' })).toEqual({
      body: { daily: 3, weekly: null, monthly: 40, monthlyBudgetCents: 20000 },
    });
  });

  it('refuses what the server would, by field', () => {
    const result = capsBody({
      daily: '0',
      weekly: '2.5',
      monthly: 'x',
      monthlyBudgetCents: '1.999',
    });
    expect(Object.keys('errors' in result ? result.errors : {})).toEqual([
      'daily',
      'weekly',
      'monthly',
      'monthlyBudgetCents',
    ]);
  });
});
