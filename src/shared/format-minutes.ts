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
