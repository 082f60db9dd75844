import { describe, expect, it } from 'vitest';
import { loadConfig } from './env';

describe('DATABASE_POOL_SIZE', () => {
  const read = (value?: string) =>
    loadConfig({ NODE_ENV: 'test', ...(value === undefined ? {} : { DATABASE_POOL_SIZE: value }) })
      .DATABASE_POOL_SIZE;

  it('is 10 connections unless set, and takes a whole number', () => {
    expect(read()).toBe(10);
    expect(read('25')).toBe(25);
  });

  it('refuses 0, a fraction and text, naming the setting', () => {
    for (const bad of ['0', '2.5', 'many'])
      expect(() => read(bad), bad).toThrow(/Invalid configuration:\n {2}DATABASE_POOL_SIZE: /);
  });
});
