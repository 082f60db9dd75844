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
    hash(kind, value);
    this.bits[hashed.a >>> 5] |= 1 << (hashed.a & 31);
    this.bits[hashed.b >>> 5] |= 1 << (hashed.b & 31);
  }

  mayHave(kind: string, value: string): boolean {
    hash(kind, value);
    return (
      (this.bits[hashed.a >>> 5] & (1 << (hashed.a & 31))) !== 0 &&
      (this.bits[hashed.b >>> 5] & (1 << (hashed.b & 31))) !== 0
    );
  }
}

/**
 * The last value's two bit indexes. One import asks millions of times: answered here instead of
 * as a new pair each time, and the kind and value hashed in turn instead of joined into a new
 * string (the same hashes: FNV-1a and djb2 read the characters in the same order).
 */
const hashed = { a: 0, b: 0 };

/** Two independent 32-bit hashes (FNV-1a and djb2) of the kind, then the value, as bit indexes. */
function hash(kind: string, value: string): void {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  for (let i = 0; i < kind.length; i++) {
    const c = kind.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) + c) | 0;
  }
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) + c) | 0;
  }
  hashed.a = fnv & MASK;
  hashed.b = djb & MASK;
}
