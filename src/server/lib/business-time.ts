const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per time zone: building one costs far more than formatting with it. */
function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The business day (YYYY-MM-DD) that an instant falls on in the business time zone. */
export function businessDate(timeZone: string, at: Date = new Date()): string {
  const parts = dayFormatter(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** MM-DD of a business date, for comparing against yearly windows. */
export function monthDayOf(date: string): string {
  return date.slice(5);
}

/** Whether MM-DD lies in [start, end]; a window whose end is before its start wraps the new year. */
export function inYearlyWindow(monthDay: string, start: string, end: string): boolean {
  return start <= end ? monthDay >= start && monthDay <= end : monthDay >= start || monthDay <= end;
}

/** The Monday of a business date's week (weeks start on Monday), as YYYY-MM-DD. */
export function weekStartOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/** The first day of a business date's month, as YYYY-MM-DD. */
export function monthStartOf(date: string): string {
  return `${date.slice(0, 8)}01`;
}
