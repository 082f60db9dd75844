import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS_REFUSED, isCommonPassword, passwordProblem } from './password-policy';

describe('passwordProblem', () => {
  it('refuses the most common passwords whatever their case, with a clear message', () => {
    for (const common of ['123456', 'password', 'Password1', 'qwerty123', 'iloveyou', 'secret1']) {
      expect(passwordProblem(common), common).toMatch(/too common/);
    }
  });

  it('refuses passwords that are only spaces, and keeps the 6 to 1024 characters', () => {
    expect(passwordProblem('      ')).toBe('Password cannot be only spaces');
    expect(passwordProblem(' \t\u00a0\u2003  ')).toBe('Password cannot be only spaces');
    expect(passwordProblem('abc12')).toBe('Password must be at least 6 characters');
    expect(passwordProblem('x'.repeat(1025))).toBe('Password must be at most 1024 characters');
  });

  it('accepts an uncommon password, spaces inside included', () => {
    for (const ok of [
      'plum-tree-41',
      'correct horse battery',
      ' leading space',
      'x'.repeat(1024),
    ]) {
      expect(passwordProblem(ok), ok).toBeNull();
    }
  });

  it('holds at least the 10,000 most common passwords', () => {
    expect(COMMON_PASSWORDS_REFUSED).toBeGreaterThanOrEqual(10_000);
    // the demo agents' password is not among them (the demo seeder bypasses the rule anyway)
    expect(isCommonPassword('demo1234')).toBe(false);
  });
});
