#!/usr/bin/env node
/**
 * Draws the Hashfield icons (a white slanted "#" on the brand blue #1c7ed6) and writes real PNGs with zlib:
 * public/icons/icon-192.png, icon-512.png (rounded, transparent corners), icon-maskable-512.png (full bleed,
 * glyph inside the 80 % safe zone), apple-touch-icon-180.png, public/favicon-32.png and public/favicon.ico.
 * Run: node tests/support/make-icons.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BRAND = [0x1c, 0x7e, 0xd6];
const WHITE = [0xff, 0xff, 0xff];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inside the rounded square background (coordinates 0..1). */
function inBackground(x, y, radius) {
  if (radius <= 0) return true;
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** Inside the "#" glyph, drawn in a unit box scaled by `scale` around the centre. */
function inGlyph(x, y, scale) {
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  const skew = u + 0.12 * (v - 0.5); // slanted verticals
  const t = 0.1; // stroke
  const vertical = (skew >= 0.33 && skew <= 0.33 + t) || (skew >= 0.57 && skew <= 0.57 + t);
  const horizontal = (v >= 0.33 && v <= 0.33 + t) || (v >= 0.57 && v <= 0.57 + t);
  const inV = v >= 0.14 && v <= 0.86;
  const inH = u >= 0.14 && u <= 0.86;
  return (vertical && inV) || (horizontal && inH);
}

function render(size, { radius, scale, opaque }) {
  const out = Buffer.alloc(size * size * 4);
  const ss = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const x = (px + (sx + 0.5) / ss) / size;
          const y = (py + (sy + 0.5) / ss) / size;
          if (inBackground(x, y, radius)) {
            bg++;
            if (inGlyph(x, y, scale)) fg++;
          }
        }
      }
      const n = ss * ss;
      const a = opaque ? 1 : bg / n;
      const f = bg === 0 ? 0 : fg / bg;
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) out[i + c] = Math.round(BRAND[c] * (1 - f) + WHITE[c] * f);
      out[i + 3] = Math.round(a * 255);
    }
  }
  return encodePng(size, out);
}

function encodeIco(png, size) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  const entry = Buffer.alloc(16);
  entry[0] = size;
  entry[1] = size;
  entry.writeUInt16LE(1, 4); // planes
  entry.writeUInt16LE(32, 6); // bpp
  entry.writeUInt32LE(png.length, 8);
  entry.writeUInt32LE(22, 12);
  return Buffer.concat([header, entry, png]);
}

const files = {
  'public/icons/icon-192.png': render(192, { radius: 0.2, scale: 0.78, opaque: false }),
  'public/icons/icon-512.png': render(512, { radius: 0.2, scale: 0.78, opaque: false }),
  'public/icons/icon-maskable-512.png': render(512, { radius: 0, scale: 0.6, opaque: true }),
  'public/icons/apple-touch-icon-180.png': render(180, { radius: 0, scale: 0.7, opaque: true }),
  'public/favicon-32.png': render(32, { radius: 0.2, scale: 0.85, opaque: false }),
};
files['public/favicon.ico'] = encodeIco(files['public/favicon-32.png'], 32);

for (const [rel, data] of Object.entries(files)) {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  console.log(`${rel} ${data.length} bytes`);
}
