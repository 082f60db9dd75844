import { describe, expect, it } from 'vitest';
import { SeenContacts } from './seen-contacts';

describe('SeenContacts', () => {
  it('answers true for every value added and false for almost every other', () => {
    const seen = new SeenContacts();
    const n = 200_000;
    for (let i = 0; i < n; i++) seen.add('p', `+1212${String(i).padStart(7, '0')}`);
    for (let i = 0; i < n; i++) {
      if (!seen.mayHave('p', `+1212${String(i).padStart(7, '0')}`)) throw new Error(`lost ${i}`);
    }
    let wrong = 0;
    for (let i = 0; i < n; i++)
      if (seen.mayHave('p', `+1313${String(i).padStart(7, '0')}`)) wrong++;
    // two bits of 2^26 a value: about 1 in 40,000 wrongly true at 200,000 values
    expect(wrong).toBeLessThan(n / 2_000);
  });

  it('keeps the kinds apart: a phone is not an email with the same text', () => {
    const seen = new SeenContacts();
    seen.add('p', 'ann@example.com');
    expect(seen.mayHave('p', 'ann@example.com')).toBe(true);
    expect(seen.mayHave('e', 'ann@example.com')).toBe(false);
  });
});
