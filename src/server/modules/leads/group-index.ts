/**
 * The rows of an import group kept so far, found by one of their values (a phone, an email or an
 * externalId): an open-addressing table of the rows' indexes into the group's own column, which
 * the import uses again for every group (docs/decisions/049). A Map of 20,000 strings grew its
 * table a dozen times a group, the last few too large for V8's young generation: a million-row
 * import left 128 MB of them to the major collections.
 */
export class GroupIndex {
  /** a row's index + 1 (0: empty), at its value's hash, or after it (linear probing) */
  private slots: Int32Array;
  private values: readonly (string | null)[] = [];

  constructor(slots = 1 << 16) {
    this.slots = new Int32Array(slots);
  }

  /** Empty again, for a group of `rows` rows whose values are `values` (by row index). */
  reset(values: readonly (string | null)[], rows: number): void {
    this.values = values;
    let size = this.slots.length;
    while (size < rows * 2) size *= 2; // at most half full: short probes
    if (size > this.slots.length) this.slots = new Int32Array(size);
    else this.slots.fill(0);
  }

  /** The index of the row kept earlier with this value, or -1. */
  find(value: string): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let s = hash(value) & mask; ; s = (s + 1) & mask) {
      const row = (slots[s] as number) - 1;
      if (row === -1 || this.values[row] === value) return row;
    }
  }

  /** Remembers row `row` (its value is `values[row]`, not yet held by a row kept). */
  add(row: number): void {
    const value = this.values[row];
    if (value === null || value === undefined) return;
    const slots = this.slots;
    const mask = slots.length - 1;
    let s = hash(value) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = row + 1;
  }
}

/** FNV-1a, 32 bits. */
function hash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
