#!/usr/bin/env node
/**
 * Draws the app icons (public/icons/*.png) — the same magnifier as public/favicon.svg — with
 * Node's zlib as the PNG encoder. Run once after changing the design; the PNGs are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BLUE = [0x1f, 0x6f, 0xeb];
const WHITE = [0xff, 0xff, 0xff];

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An RGBA PNG of size×size from `pixel(x, y)` in [0,1]² returning [r,g,b,a]. */
function png(size, pixel) {
  const rows = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    rows[y * (1 + size * 4)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const p = pixel((x + 0.5) / size, (y + 0.5) / size);
      rows.set(p, y * (1 + size * 4) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** The magnifier on blue; `inset` shrinks the drawing for the maskable safe zone. */
function icon(rounded, inset) {
  return (u, v) => {
    const x = (u - 0.5) / (1 - 2 * inset) + 0.5;
    const y = (v - 0.5) / (1 - 2 * inset) + 0.5;
    if (rounded) {
      const r = 0.19;
      const dx = Math.max(r - u, 0, u - (1 - r));
      const dy = Math.max(r - v, 0, v - (1 - r));
      if (dx * dx + dy * dy > r * r) return [0, 0, 0, 0];
    }
    const d = Math.hypot(x - 0.5, y - 0.47);
    const ring = Math.abs(d - 0.265) < 0.04;
    const dot = d < 0.094;
    const t = ((x - 0.69) + (y - 0.66)) / 2; // along the handle, from the ring outwards
    const off = Math.abs((x - 0.69) - (y - 0.66)) / Math.SQRT2;
    const handle = t > 0 && t < 0.16 && off < 0.047;
    return [...(ring || dot || handle ? WHITE : BLUE), 255];
  };
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', png(192, icon(true, 0)));
writeFileSync('public/icons/icon-512.png', png(512, icon(true, 0)));
writeFileSync('public/icons/icon-maskable-512.png', png(512, icon(false, 0.1)));
writeFileSync('public/icons/apple-touch-icon-180.png', png(180, icon(false, 0.06)));
console.log('wrote public/icons/*.png');
