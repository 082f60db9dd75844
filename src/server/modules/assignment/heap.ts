/** Binary heap of small non-negative integers under an external order (`before`). */
export class Heap {
  private readonly items: Int32Array;
  size = 0;
  constructor(
    capacity: number,
    private readonly before: (a: number, b: number) => boolean,
  ) {
    this.items = new Int32Array(Math.max(1, capacity));
  }
  top(): number {
    return this.items[0];
  }
  push(x: number): void {
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(x, items[p])) break;
      items[i] = items[p];
      i = p;
    }
    items[i] = x;
  }
  pop(): void {
    const last = this.items[--this.size];
    if (this.size > 0) {
      this.items[0] = last;
      this.siftTop();
    }
  }
  /** Restores the order after the top's key moved later. */
  siftTop(): void {
    const items = this.items;
    const size = this.size;
    const x = items[0];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const child = r < size && this.before(items[r], items[l]) ? r : l;
      if (!this.before(items[child], x)) break;
      items[i] = items[child];
      i = child;
    }
    items[i] = x;
  }
}
