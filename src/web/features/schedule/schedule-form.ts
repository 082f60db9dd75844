/**
 * The schedule and caps form's values and the bodies they make (docs/domain.md, Schedule and
 * caps): pure, so the rules are tested without a browser.
 */
import type { Caps, ScheduleBody, ScheduleState } from '@shared/contracts/schedule';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export interface DayRow {
  on: boolean;
  /** HH:MM, 24 h; the end may be 24:00 (the end of the day) */
  start: string;
  end: string;
}

export interface ScheduleForm {
  timeZone: string;
  days: Record<Weekday, DayRow>;
}

const WORKDAY: DayRow = { on: true, start: '09:00', end: '17:00' };
const OFF: DayRow = { on: false, start: '09:00', end: '17:00' };

/** The form for a saved schedule, or a working week (Monday to Friday, 9 to 5) in `zone`. */
export function scheduleForm(state: ScheduleState | undefined, zone: string): ScheduleForm {
  const days = {} as Record<Weekday, DayRow>;
  for (const d of WEEKDAYS) {
    if (state?.days == null) days[d] = d === 'sat' || d === 'sun' ? OFF : WORKDAY;
    else {
      const saved = state.days[d];
      days[d] = saved ? { on: true, ...saved } : OFF;
    }
  }
  return { timeZone: state?.timeZone ?? zone, days };
}

/** The PUT body: days switched off are null. */
export function scheduleBody(form: ScheduleForm): ScheduleBody {
  const days = {} as ScheduleBody['days'];
  for (const d of WEEKDAYS) {
    const row = form.days[d];
    days[d] = row.on ? { start: row.start, end: row.end } : null;
  }
  return { timeZone: form.timeZone.trim(), days };
}

export type CapField = keyof Caps;
export const CAP_FIELDS: readonly CapField[] = ['daily', 'weekly', 'monthly', 'monthlyBudgetCents'];

/** The caps as the inputs show them: "" for none; the budget in dollars. */
export function capsForm(caps: Caps | undefined): Record<CapField, string> {
  const show = (n: number | null | undefined) => (n == null ? '' : String(n));
  return {
    daily: show(caps?.daily),
    weekly: show(caps?.weekly),
    monthly: show(caps?.monthly),
    monthlyBudgetCents:
      caps?.monthlyBudgetCents == null ? '' : (caps.monthlyBudgetCents / 100).toFixed(2),
  };
}

/**
 * The PUT body, or the fields the form can refuse itself: blank is none; counts are positive
 * whole numbers; the budget is dollars and cents.
 */
export function capsBody(
  form: Record<CapField, string>,
): { body: Caps } | { errors: Partial<Record<CapField, string>> } {
  const errors: Partial<Record<CapField, string>> = {};
  const count = (field: 'daily' | 'weekly' | 'monthly'): number | null => {
    const text = form[field].trim();
    if (text === '') return null;
    if (!/^\d+$/.test(text) || Number(text) < 1) {
      errors[field] = 'Enter a whole number above 0, or leave it blank';
      return null;
    }
    return Number(text);
  };
  const daily = count('daily');
  const weekly = count('weekly');
  const monthly = count('monthly');
  let monthlyBudgetCents: number | null = null;
  const budget = form.monthlyBudgetCents.trim().replace(/^\$/, '');
  if (budget !== '') {
    if (!/^\d+(\.\d{1,2})?$/.test(budget) || Number(budget) <= 0)
      errors.monthlyBudgetCents = 'Enter an amount such as 150 or 150.00, or leave it blank';
    else monthlyBudgetCents = Math.round(Number(budget) * 100);
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { daily, weekly, monthly, monthlyBudgetCents } };
}
