/**
 * When a lead may be called or messaged (docs/domain.md, Calling window): 8:00 to 21:00 in the
 * lead's own time zone, 8:00 to 20:00 for Florida leads (Florida's telemarketing law). Pure, so
 * the server's gates and the screens say the same thing; DST comes from the IANA zone itself.
 */

export const CALLING_OPENS_HOUR = 8;
export const CALLING_CLOSES_HOUR = 21;
/** States whose own law closes the window earlier than the federal 9 PM. */
export const EARLIER_CLOSE: Record<string, number> = { FL: 20 };

/** The main time zone of each state (and DC, PR): a lead without a known ZIP gets its state's. */
export const STATE_TIME_ZONES: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  PR: 'America/Puerto_Rico',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
};

export interface CallingWindow {
  /** whether a call or message may go now */
  callableNow: boolean;
  /** when the window next opens (now's window's opening when callable now), ISO UTC */
  opensAt: string;
  /** when the current or next window closes, ISO UTC */
  closesAt: string;
  /** the zone's short name: ET, CT, MT, PT, AKT, HT, AT (Atlantic: Puerto Rico) */
  zone: string;
  /** "Callable now until 9 PM CT" or "Call after 8 AM ET" (with the day when not today) */
  label: string;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function localParts(at: Date, timeZone: string): LocalParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
  };
}

/** The UTC instant of a wall-clock time in the zone (a time a DST jump skips moves forward). */
export function zonedTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  timeZone: string,
): Date {
  const wanted = Date.UTC(year, month - 1, day, hour);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const p = localParts(new Date(guess), timeZone);
    const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    if (seen === wanted) break;
    guess += wanted - seen;
  }
  return new Date(guess);
}

/** 'EST' -> 'ET', 'CDT' -> 'CT', 'AKST' -> 'AKT', 'HST' -> 'HT'; other zones keep their name. */
export function zoneAbbreviation(timeZone: string, at: Date): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  return /^[A-Z]{2,4}$/.test(name) ? name.replace(/[SD]T$/, 'T') : name;
}

function hourLabel(hour: number): string {
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * The lead's calling window at `now`. `timeZone` is the lead's (its ZIP's zone, else its
 * state's: leadTimeZone on the server); null falls back to the state's main zone, then ET.
 */
export function callingWindow(
  timeZone: string | null,
  state: string,
  now: Date = new Date(),
): CallingWindow {
  const zoneName = timeZone ?? STATE_TIME_ZONES[state] ?? 'America/New_York';
  const closesHour = EARLIER_CLOSE[state] ?? CALLING_CLOSES_HOUR;
  const today = localParts(now, zoneName);
  const open = zonedTime(today.year, today.month, today.day, CALLING_OPENS_HOUR, zoneName);
  const close = zonedTime(today.year, today.month, today.day, closesHour, zoneName);
  const zone = zoneAbbreviation(zoneName, now);
  if (now >= open && now < close) {
    return {
      callableNow: true,
      opensAt: open.toISOString(),
      closesAt: close.toISOString(),
      zone,
      label: `Callable now until ${hourLabel(closesHour)} ${zone}`,
    };
  }
  let nextOpen = open;
  let nextClose = close;
  let when = '';
  if (now >= close) {
    // tomorrow's window: the local date after today (noon UTC of it avoids DST edges)
    const t = new Date(Date.UTC(today.year, today.month - 1, today.day + 1, 12));
    const y = t.getUTCFullYear();
    const m = t.getUTCMonth() + 1;
    const d = t.getUTCDate();
    nextOpen = zonedTime(y, m, d, CALLING_OPENS_HOUR, zoneName);
    nextClose = zonedTime(y, m, d, closesHour, zoneName);
    when = ' tomorrow';
  }
  const nextZone = zoneAbbreviation(zoneName, nextOpen);
  return {
    callableNow: false,
    opensAt: nextOpen.toISOString(),
    closesAt: nextClose.toISOString(),
    zone: nextZone,
    label: `Call${when} after ${hourLabel(CALLING_OPENS_HOUR)} ${nextZone}`,
  };
}

/**
 * The instant at which `minutes` of the lead's calling windows have passed since `from`: minutes
 * outside the window (the night, before 8 AM) do not count (docs/domain.md, Agencies: reclaim).
 */
export function callingMinutesDueAt(
  timeZone: string | null,
  state: string,
  from: Date,
  minutes: number,
): Date {
  let left = minutes * 60_000;
  let at = from;
  // a window a day: a year of them is far more than any reclaim allows (24 hours at most)
  for (let i = 0; i < 400; i++) {
    const w = callingWindow(timeZone, state, at);
    const start = w.callableNow ? at : new Date(w.opensAt);
    const end = new Date(w.closesAt);
    const span = end.getTime() - start.getTime();
    if (span >= left) return new Date(start.getTime() + left);
    left -= Math.max(0, span);
    at = end;
  }
  return at;
}
