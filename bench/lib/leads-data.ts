/**
 * Deterministic lead data (seeded PRNG): the same seed and count give the same rows, byte for
 * byte, on every machine. Used as a CSV file for the import bench and as COPY rows for the HTTP
 * bench.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LEAD_CATEGORIES, type LeadCategory, STATE_CODES } from '../../src/shared/domain';

export const DEFAULT_SEED = 20260615;

export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// biome-ignore format: a word list
const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David',
  'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah',
  'Charles', 'Karen', 'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony',
  'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily',
  'Andrew', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian',
  'Dorothy', 'George', 'Melissa', 'Timothy', 'Deborah', 'José', 'Zoë',
];

// Smith is one surname in ~60, as in US census data it is the most common one (~0.8%).
// biome-ignore format: a word list
const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez',
  'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor',
  'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez',
  'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott',
  'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera',
  'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz',
  'Parker', 'Cruz', 'Edwards', 'Collins', "O'Brien",
];

// biome-ignore format: a word list
const CITIES = [
  'Springfield', 'Franklin', 'Greenville', 'Bristol', 'Clinton', 'Fairview', 'Salem', 'Madison',
  'Georgetown', 'Arlington', 'Ashland', 'Dover', 'Oxford', 'Jackson', 'Burlington', 'Manchester',
  'Milton', 'Newport', 'Auburn', 'Dayton', 'Lexington', 'Milford', 'Riverside', 'Winchester',
  'Cleveland', 'Hudson', 'Kingston', 'Mount Vernon', 'Oakland', 'Centerville', 'Winston-Salem',
  'St. Petersburg', 'Coeur d’Alene',
];

const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.test'];

export interface LeadRow {
  externalId: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  city: string;
  state: string;
  age: number;
  category: LeadCategory;
}

/** Lead rows 0, 1, 2... of one seeded sequence. */
export class LeadGenerator {
  readonly rand: () => number;
  private index = 0;

  constructor(seed = DEFAULT_SEED) {
    this.rand = mulberry32(seed);
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }

  next(): LeadRow {
    const i = this.index++;
    const x = this.rand();
    const category: LeadCategory =
      x < 0.45 ? LEAD_CATEGORIES[0] : x < 0.8 ? LEAD_CATEGORIES[1] : LEAD_CATEGORIES[2];
    const age =
      category === 'MEDICARE'
        ? this.int(64, 95)
        : category === 'ACA'
          ? this.int(18, 64)
          : this.int(50, 85);
    const firstName = this.pick(FIRST_NAMES);
    // ~1% carry a suffix with a comma: a quoted field, as spreadsheet exports write it
    const lastName = this.rand() < 0.01 ? `${this.pick(LAST_NAMES)}, Jr.` : this.pick(LAST_NAMES);
    const phone = `${this.int(201, 989)}-${this.int(200, 999)}-${String(this.int(0, 9999)).padStart(4, '0')}`;
    const email =
      this.rand() < 0.8
        ? `${firstName}.${lastName.replace(/[^A-Za-z]/g, '')}${i}@${this.pick(EMAIL_DOMAINS)}`.toLowerCase()
        : null;
    return {
      externalId: `L${String(i + 1).padStart(9, '0')}`,
      firstName,
      lastName,
      phone,
      email,
      city: this.pick(CITIES),
      state: this.pick(STATE_CODES),
      age,
      category,
    };
  }
}

export const CSV_HEADER = 'firstName,lastName,phone,email,city,state,age,category,externalId\n';

/** RFC 4180 quoting where a value needs it. */
function csvValue(v: string | null): string {
  if (v === null) return '';
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function csvLine(r: LeadRow): string {
  return `${csvValue(r.firstName)},${csvValue(r.lastName)},${r.phone},${csvValue(r.email)},${csvValue(r.city)},${r.state},${r.age},${r.category},${r.externalId}\n`;
}

export interface CsvFile {
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
  ms: number;
}

/** Streams `rows` lead rows to a CSV file (with backpressure: memory stays flat). */
export async function writeLeadsCsv(
  path: string,
  rows: number,
  seed = DEFAULT_SEED,
): Promise<CsvFile> {
  const started = performance.now();
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  const gen = new LeadGenerator(seed);
  let bytes = 0;
  const write = async (chunk: string) => {
    hash.update(chunk);
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write(CSV_HEADER);
  const CHUNK = 5000;
  for (let done = 0; done < rows; ) {
    let chunk = '';
    const stop = Math.min(rows, done + CHUNK);
    for (; done < stop; done++) chunk += csvLine(gen.next());
    await write(chunk);
  }
  out.end();
  await once(out, 'finish');
  return {
    path,
    rows,
    bytes,
    sha256: hash.digest('hex'),
    ms: Math.round(performance.now() - started),
  };
}
