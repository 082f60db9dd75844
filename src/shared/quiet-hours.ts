/**
 * The agent's quiet hours (docs/domain.md, Alerts to the agent's phone): a wall-clock window,
 * HH:MM to HH:MM in the agent's time zone, start included and end not; a window whose end comes
 * before its start crosses midnight (22:00-07:00 is quiet at 23:30 and at 06:59, not at 07:00).
 */
export interface QuietHours {
  start: string;
  end: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The wall-clock minute of the day at `at` in `timeZone` (0..1439). */
export function minuteOfDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** Whether `at` falls in the quiet hours, read in `timeZone`; no quiet hours: never. */
export function inQuietHours(quiet: QuietHours | null, at: Date, timeZone: string): boolean {
  if (!quiet) return false;
  const now = minuteOfDay(at, timeZone);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  return start < end ? now >= start && now < end : now >= start || now < end;
}
