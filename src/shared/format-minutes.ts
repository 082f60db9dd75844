/** A duration in minutes as people say it: "45 s", "12 min", "3 h 20 min", "2 d 4 h". */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '—';
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  if (minutes < 60) return `${Math.round(minutes)} min`;
  const h = Math.floor(minutes / 60);
  if (h < 48) {
    const m = Math.round(minutes - h * 60);
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  const d = Math.floor(h / 24);
  const rest = h - d * 24;
  return rest === 0 ? `${d} d` : `${d} d ${rest} h`;
}

/** One unit for a set of durations, so a chart's axis and the figures beside it read alike. */
export interface DurationUnit {
  /** the unit's short name: 's', 'min', 'h' or 'd' */
  label: 's' | 'min' | 'h' | 'd';
  /** minutes in one unit */
  minutes: number;
}

/**
 * Seconds below 2 minutes, minutes up to 2 hours, hours up to 2 days, days beyond: the largest
 * duration decides (none at all reads in minutes).
 */
export function durationUnit(largestMinutes: number | null): DurationUnit {
  const m = largestMinutes ?? 0;
  if (m > 0 && m < 2) return { label: 's', minutes: 1 / 60 };
  if (m < 120) return { label: 'min', minutes: 1 };
  if (m < 48 * 60) return { label: 'h', minutes: 60 };
  return { label: 'd', minutes: 1440 };
}

/** Minutes in that unit, to one decimal where it matters: "45 s", "45 min", "3.5 h", "2.1 d"; "—" for none. */
export function formatInUnit(minutes: number | null, unit: DurationUnit): string {
  if (minutes === null) return '—';
  const v = minutes / unit.minutes;
  const shown = v >= 10 || Number.isInteger(v) ? Math.round(v) : Math.round(v * 10) / 10;
  return `${shown} ${unit.label}`;
}
