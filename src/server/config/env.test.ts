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

describe('HEAP_GROWING_PERCENT', () => {
  const read = (value?: string) =>
    loadConfig({
      NODE_ENV: 'test',
      ...(value === undefined ? {} : { HEAP_GROWING_PERCENT: value }),
    }).HEAP_GROWING_PERCENT;

  it('bounds the growth at 100% unless set; 0 leaves it to V8', () => {
    expect(read()).toBe(100);
    expect(read('0')).toBe(0);
    expect(read('150')).toBe(150);
  });

  it('refuses a negative, a fraction, text and past 1000, naming the setting', () => {
    for (const bad of ['-1', '2.5', 'half', '1001'])
      expect(() => read(bad), bad).toThrow(/Invalid configuration:\n {2}HEAP_GROWING_PERCENT: /);
  });
});
