/**
 * Draws the app's icons (public/icons/) from the brand mark of public/favicon.svg: a dark rounded
 * square, an L in white and a rising line in blue, on its 32-unit grid. No image library: each
 * pixel is sampled 4x4 against the shapes' distance functions and written as a PNG with zlib.
 * Run again after the mark changes: `npx tsx scripts/make-icons.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type Rgb = [number, number, number];
const DARK: Rgb = [0x17, 0x17, 0x17];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const BLUE: Rgb = [0x60, 0xa5, 0xfa];

/** The mark's strokes, in the favicon's 32-unit grid: [points, width, colour]. */
const STROKES: [number[][], number, Rgb][] = [
  [
    [
      [9, 8],
      [9, 24],
      [23, 24],
    ],
    3.2,
    WHITE,
  ],
  [
    [
      [15, 19],
      [19, 14],
      [23, 17],
    ],
    2.6,
    BLUE,
  ],
];

function segmentDistance(px: number, py: number, [ax, ay]: number[], [bx, by]: number[]): number {
  const dx = bx! - ax!;
  const dy = by! - ay!;
  const t = Math.max(0, Math.min(1, ((px - ax!) * dx + (py - ay!) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax! + t * dx), py - (ay! + t * dy));
}

/** Inside the rounded square of side 32 and corner radius r (a full square when r = 0). */
function inRoundedSquare(x: number, y: number, r: number): boolean {
  if (x < 0 || y < 0 || x > 32 || y > 32) return false;
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

/**
 * The colour at a grid point, or null outside the icon. `scale` shrinks the mark about the
 * centre (a maskable icon keeps it inside the safe zone, its background to the edges).
 */
function sample(x: number, y: number, radius: number, scale: number): Rgb | null {
  if (!inRoundedSquare(x, y, radius)) return null;
  const mx = 16 + (x - 16) / scale;
  const my = 16 + (y - 16) / scale;
  for (let s = STROKES.length - 1; s >= 0; s--) {
    const [points, width, colour] = STROKES[s]!;
    for (let i = 0; i + 1 < points.length; i++)
      if (segmentDistance(mx, my, points[i]!, points[i + 1]!) <= width / 2) return colour;
  }
  return DARK;
}

function draw(size: number, radius: number, scale: number): Buffer {
  const n = 4;
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const c = sample(
            ((px + (sx + 0.5) / n) / size) * 32,
            ((py + (sy + 0.5) / n) / size) * 32,
            radius,
            scale,
          );
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a++;
        }
      const o = 1 + px * 4;
      if (a > 0) {
        row[o] = Math.round(r / a);
        row[o + 1] = Math.round(g / a);
        row[o + 2] = Math.round(b / a);
      }
      row[o + 3] = Math.round((a / (n * n)) * 255);
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit RGBA PNG of filtered scanlines (filter byte 0 on each). */
function png(size: number, scanlines: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(scanlines, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = new URL('../public/icons/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('icon-192.png', out), draw(192, 7, 1));
writeFileSync(new URL('icon-512.png', out), draw(512, 7, 1));
// maskable: the background to the edges, the mark within the middle 80% (the safe zone)
writeFileSync(new URL('icon-maskable-512.png', out), draw(512, 0, 0.75));
writeFileSync(new URL('apple-touch-icon.png', out), draw(180, 0, 0.85));
