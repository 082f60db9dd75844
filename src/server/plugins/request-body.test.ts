import { describe, expect, it } from 'vitest';
import { jsonHasNul } from './request-body';

describe('jsonHasNul', () => {
  it('finds the \\u0000 escape anywhere in JSON text, in a key or a value', () => {
    expect(jsonHasNul(JSON.stringify({ name: 'a\u0000b' }))).toBe(true);
    expect(jsonHasNul(JSON.stringify({ 'k\u0000': 1 }))).toBe(true);
    expect(jsonHasNul(JSON.stringify([['\\', '\u0000']]))).toBe(true);
    expect(jsonHasNul(JSON.stringify({ name: '\\\u0000' }))).toBe(true);
  });

  it('does not mistake an escaped backslash followed by u0000 for a NUL', () => {
    expect(jsonHasNul(JSON.stringify({ name: '\\u0000' }))).toBe(false);
    expect(jsonHasNul(JSON.stringify({ name: '\\\\u0000' }))).toBe(false);
    expect(jsonHasNul(JSON.stringify({ name: 'plain', n: 0 }))).toBe(false);
  });

  it('agrees with the parsed value on generated strings', () => {
    const alphabet = ['\\', 'u', '0', '\u0000', 'a', '"'];
    for (let i = 0; i < 2000; i++) {
      let s = '';
      for (let j = 0; j < 8; j++)
        s += alphabet[(i * 7 + j * 13 + ((i >> j) & 5)) % alphabet.length];
      expect(jsonHasNul(JSON.stringify({ s })), JSON.stringify(s)).toBe(s.includes('\u0000'));
    }
  });
});
