/**
 * The phones, emails and externalIds of the rows an import has already kept, as a Bloom filter
 * (docs/decisions/048): `mayHave` false means no earlier row of the file has that value; true
 * means one may have (about 1 in 300 answers true wrongly at two million values, more beyond).
 * The group writer asks the import's own transaction about the rows it answers true for, and the
 * committed leads (a second connection) about every row. A wrong true costs one index probe, so
 * the filter never needs to be exact; it takes 8 MB whatever the file's size.
 */

const BITS = 1 << 26;
const MASK = BITS - 1;

export class SeenContacts {
  private readonly bits = new Uint32Array(BITS >>> 5);

  add(kind: string, value: string): void {
    const [a, b] = hashes(kind, value);
    this.bits[a >>> 5] |= 1 << (a & 31);
    this.bits[b >>> 5] |= 1 << (b & 31);
  }

  mayHave(kind: string, value: string): boolean {
    const [a, b] = hashes(kind, value);
    return (
      (this.bits[a >>> 5] & (1 << (a & 31))) !== 0 && (this.bits[b >>> 5] & (1 << (b & 31))) !== 0
    );
  }
}

/** Two independent 32-bit hashes (FNV-1a and djb2) of the kind and the value, as bit indexes. */
function hashes(kind: string, value: string): [number, number] {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  const text = kind + value;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) + c) | 0;
  }
  return [fnv & MASK, djb & MASK];
}
