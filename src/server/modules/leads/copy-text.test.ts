import { describe, expect, it } from 'vitest';
import { CopyText } from './copy-text';

const row = (i: number) => `ext-${i}\tJosé\tO'Brien-${i}\t+1212555${String(i).padStart(4, '0')}\n`;

describe('CopyText', () => {
  it('answers the rows kept, in order, as UTF-8, whichever rows are refused', () => {
    for (const refused of [
      [],
      [0],
      [9],
      [0, 1, 2],
      [3, 4, 8],
      [0, 2, 4, 6, 8],
      [...Array(10).keys()],
    ]) {
      const text = new CopyText(16, 2); // small, so that both the bytes and the ends grow
      for (let i = 0; i < 10; i++) text.add(row(i));
      const kept = [...Array(10).keys()].filter((i) => !refused.includes(i));
      expect(text.keepOnly(refused).toString('utf8')).toBe(kept.map(row).join(''));
      expect(text.rows).toBe(kept.length);
    }
  });

  it('starts empty after clear, its buffer used again for the next group', () => {
    const text = new CopyText(1024, 4);
    for (let i = 0; i < 5; i++) text.add(row(i));
    text.keepOnly([1]);
    expect(() => text.add(row(5))).toThrow(/after keepOnly/);
    text.clear();
    text.add(row(7));
    expect(text.keepOnly([]).toString('utf8')).toBe(row(7));
    expect(text.rows).toBe(1);
  });
});
