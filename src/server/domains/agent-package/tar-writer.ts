/**
 * A minimal ustar writer (POSIX.1-1988 headers, regular files and directories only) and its gzip wrapper,
 * enough for the agent package: names up to 255 bytes (prefix + name split at a '/'), sizes below 8 GiB,
 * octal numeric fields, the header checksum, and the two zero blocks that end an archive.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  /** Path inside the archive, '/'-separated; a trailing '/' makes a directory. */
  name: string;
  data?: Buffer | string;
  /** Permission bits, e.g. 0o644 (files) or 0o755 (directories, executables). */
  mode?: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  // width - 1 digits then NUL, zero-padded (what GNU tar and bsdtar write).
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  // ustar: prefix (155) + '/' + name (100); split at a '/' that makes both fit.
  for (let i = name.lastIndexOf('/', name.length - 2); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`tar: name too long for ustar: ${name}`);
}

function header(entry: TarEntry, size: number, mtime: number): Buffer {
  const dir = entry.name.endsWith('/');
  const { prefix, base } = splitName(entry.name);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(entry.mode ?? (dir ? 0o755 : 0o644), 8), 100, 8, 'ascii');
  h.write(octal(0, 8), 108, 8, 'ascii'); // uid
  h.write(octal(0, 8), 116, 8, 'ascii'); // gid
  h.write(octal(size, 12), 124, 12, 'ascii');
  h.write(octal(Math.floor(mtime / 1000), 12), 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii'); // checksum is computed with spaces here
  h.write(dir ? '5' : '0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write('root', 265, 32, 'ascii');
  h.write('root', 297, 32, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return h;
}

/** The uncompressed tar stream of the entries, in order. mtime in ms (the same for every entry). */
export function writeTar(entries: readonly TarEntry[], mtime: number = Date.now()): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const dir = entry.name.endsWith('/');
    const data = dir ? Buffer.alloc(0) : Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '', 'utf8');
    if (data.length >= 8 ** 11) throw new Error(`tar: ${entry.name} is too large`);
    parts.push(header(entry, data.length, mtime));
    if (data.length) {
      parts.push(data);
      const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
      if (pad) parts.push(Buffer.alloc(pad, 0));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}

/** writeTar, gzip-compressed (.tar.gz). */
export function writeTarGz(entries: readonly TarEntry[], mtime?: number): Buffer {
  return gzipSync(writeTar(entries, mtime), { level: 9 });
}
