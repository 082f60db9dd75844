/** The preferences preview's figures in words (docs/domain.md, Analytics that explain). */

/** "about 12 a day" against the package's leads a day. */
export function previewSentence(perDay: number, packageLeadsPerDay: number | null): string {
  const about = perDay >= 10 ? Math.round(perDay) : Math.round(perDay * 10) / 10;
  const rate = perDay === 0 ? 'no leads' : `about ${about} a day`;
  return packageLeadsPerDay === null
    ? `${rate[0].toUpperCase()}${rate.slice(1)}`
    : `${rate[0].toUpperCase()}${rate.slice(1)} for your ${packageLeadsPerDay}-a-day package`;
}

const BOUND_WORDS = {
  SCHEDULE: 'your schedule',
  DAILY_CAP: 'your daily limit',
  WEEKLY_CAP: 'your weekly cap',
  MONTHLY_CAP: 'your monthly cap',
  BUDGET: 'your monthly budget',
} as const;

/** "About 3 a day inside your schedule and caps (held back by your schedule and your weekly cap)". */
export function withinLimitsSentence(perDay: number, bounds: (keyof typeof BOUND_WORDS)[]): string {
  const about = perDay >= 10 ? Math.round(perDay) : Math.round(perDay * 10) / 10;
  const rate = perDay === 0 ? 'No leads' : `About ${about} a day`;
  const words = bounds.map((b) => BOUND_WORDS[b]);
  const held =
    words.length === 0
      ? ''
      : ` (held back by ${words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`})`;
  return `${rate} inside your schedule and caps${held}`;
}
