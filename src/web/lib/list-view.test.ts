import { describe, expect, it } from 'vitest';
import { listView } from './list-view';

describe('a list shows one state at a time', () => {
  it('loading until the first answer', () => {
    expect(listView({ isError: false, data: undefined }, 0)).toBe('loading');
  });

  it('the error alone when the load failed, not loading and not empty', () => {
    expect(listView({ isError: true, data: undefined }, 0)).toBe('error');
  });

  it('the error when a later load failed, not the rows it can no longer vouch for', () => {
    expect(listView({ isError: true, data: [1, 2] }, 2)).toBe('error');
  });

  it('empty or rows once loaded', () => {
    expect(listView({ isError: false, data: [] }, 0)).toBe('empty');
    expect(listView({ isError: false, data: [1] }, 1)).toBe('rows');
  });
});
