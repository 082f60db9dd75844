import { describe, expect, it } from 'vitest';
import { unpackLeads as unpackSpan } from './assignment.repository';
import { leadList } from './solver-graph';

const unpackLeads = (packed: string) => leadList(unpackSpan(packed));

describe('unpackLeads', () => {
  it('reads id:seconds pairs into epoch microseconds, exactly', () => {
    expect(unpackLeads('12:1781000000.123456,7:1781000000.5,3:1781000000')).toEqual([
      { id: 12, createdAt: 1781000000123456 },
      { id: 7, createdAt: 1781000000500000 },
      { id: 3, createdAt: 1781000000000000 },
    ]);
  });

  it('takes the slow path for signs, exponents and extra digits', () => {
    expect(unpackLeads('1:-86400.25,2:1e-05,3:1.0000004')).toEqual([
      { id: 1, createdAt: -86400250000 },
      { id: 2, createdAt: 10 },
      { id: 3, createdAt: 1000000 },
    ]);
  });

  it('agrees with Number() on many random microsecond timestamps', () => {
    let seed = 7;
    const pairs: string[] = [];
    const expected: { id: number; createdAt: number }[] = [];
    for (let id = 1; id <= 2000; id++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const micros = 1_600_000_000_000_000 + seed * 1000 + (id % 1000);
      pairs.push(`${id}:${micros / 1e6}`);
      expected.push({ id, createdAt: micros });
    }
    expect(unpackLeads(pairs.join(','))).toEqual(expected);
  });
});
