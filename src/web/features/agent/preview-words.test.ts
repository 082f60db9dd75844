import { describe, expect, it } from 'vitest';
import { previewSentence, withinLimitsSentence } from './preview-words';

describe('the preview in words', () => {
  it('says the matches against the package', () => {
    expect(previewSentence(12.4, 10)).toBe('About 12 a day for your 10-a-day package');
    expect(previewSentence(0, null)).toBe('No leads');
  });

  it('says what the schedule and caps leave, and what held it back', () => {
    expect(withinLimitsSentence(2.3, [])).toBe('About 2.3 a day inside your schedule and caps');
    expect(withinLimitsSentence(1, ['SCHEDULE'])).toBe(
      'About 1 a day inside your schedule and caps (held back by your schedule)',
    );
    expect(withinLimitsSentence(0, ['SCHEDULE', 'DAILY_CAP', 'BUDGET'])).toBe(
      'No leads inside your schedule and caps (held back by your schedule, your daily limit and your monthly budget)',
    );
  });
});
