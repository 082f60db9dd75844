/**
 * An import group's rows as COPY text bytes, in one buffer an import uses again for a later
 * group (docs/decisions/049). A row's text is a string of some thirty pieces; written here at
 * once, it dies young. Held as a string until the group ended, every row outlived V8's young
 * generation and was copied into the old one, where a million rows of them piled up between
 * major collections.
 */
export class CopyText {
  private bytes: Buffer;
  private ends: Int32Array;
  private used = 0;
  private count = 0;
  /** set by `keepOnly`: the rows' ends no longer hold until `clear` */
  private compacted = false;

  constructor(bytes = 4 * 1024 * 1024, rows = 20_000) {
    this.bytes = Buffer.allocUnsafe(bytes);
    this.ends = new Int32Array(rows);
  }

  /** rows added since the last `clear` (the rows kept, after `keepOnly`) */
  get rows(): number {
    return this.count;
  }

  /** one row, its newline included */
  add(row: string): void {
    if (this.compacted) throw new Error('CopyText: rows added after keepOnly, before clear');
    const most = this.used + row.length * 3; // UTF-8 takes at most 3 bytes a UTF-16 unit
    if (most > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(most, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    this.used += this.bytes.write(row, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const longer = new Int32Array(this.ends.length * 2);
      longer.set(this.ends);
      this.ends = longer;
    }
    this.ends[this.count++] = this.used;
  }

  /**
   * Drops the rows at `refused` (indexes in the order added, ascending), moving the rest up in
   * place; answers the kept rows' text, a view of the buffer valid until the next `clear`.
   */
  keepOnly(refused: readonly number[]): Buffer {
    if (refused.length > 0) {
      let to = 0;
      let from = 0; // where the run of kept rows being moved begins
      for (const i of refused) {
        const start = i === 0 ? 0 : (this.ends[i - 1] as number);
        if (start > from) {
          if (to !== from) this.bytes.copyWithin(to, from, start);
          to += start - from;
        }
        from = this.ends[i] as number;
      }
      if (this.used > from) {
        if (to !== from) this.bytes.copyWithin(to, from, this.used);
        to += this.used - from;
      }
      this.used = to;
      this.count -= refused.length;
    }
    this.compacted = true;
    return this.bytes.subarray(0, this.used);
  }

  /** empty again, for the next group (the buffer is kept) */
  clear(): void {
    this.used = 0;
    this.count = 0;
    this.compacted = false;
  }
}
