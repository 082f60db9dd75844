import { describe, expect, it } from 'vitest';
import { GroupIndex } from './group-index';

describe('GroupIndex', () => {
  it('finds the row kept with a value, and nothing for a value no row kept', () => {
    const values = ['a@x.org', 'b@x.org', null, 'a@x.org', 'c@x.org'];
    const index = new GroupIndex(4); // small: probes wrap around, and the table grows
    index.reset(values, values.length);
    expect(index.find('a@x.org')).toBe(-1);
    index.add(0);
    index.add(1);
    index.add(2); // no value: nothing kept
    expect(index.find('a@x.org')).toBe(0);
    expect(index.find('b@x.org')).toBe(1);
    expect(index.find('c@x.org')).toBe(-1);
    index.add(4);
    expect(index.find('c@x.org')).toBe(4);
  });

  it('holds every row of a large group, and is empty again for the next group', () => {
    const rows = 30_000;
    const values = Array.from({ length: rows }, (_, i) => `+1212${String(i).padStart(7, '0')}`);
    const index = new GroupIndex();
    index.reset(values, rows);
    for (let i = 0; i < rows; i += 2) index.add(i);
    for (let i = 0; i < rows; i++) expect(index.find(values[i] as string)).toBe(i % 2 ? -1 : i);
    const next = ['+12120000000'];
    index.reset(next, 1);
    expect(index.find('+12120000002')).toBe(-1);
    expect(index.find('+12120000000')).toBe(-1);
    index.add(0);
    expect(index.find('+12120000000')).toBe(0);
  });
});
