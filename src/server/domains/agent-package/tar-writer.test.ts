import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTar, writeTarGz } from './tar-writer';

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('ustar writer', () => {
  it('writes an archive GNU tar unpacks: directories, modes, long names, binary and empty files', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-tar-'));
    const longDir = `pkg/${'d'.repeat(90)}/${'e'.repeat(60)}`;
    const binary = Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 7) % 256));
    const archive = writeTarGz(
      [
        { name: 'pkg/' },
        { name: 'pkg/run.sh', data: '#!/bin/sh\necho 矿场\n', mode: 0o755 },
        { name: 'pkg/empty.txt', data: '' },
        { name: 'pkg/blob.bin', data: binary },
        { name: `${longDir}/${'f'.repeat(80)}.txt`, data: 'deep' },
      ],
      Date.UTC(2026, 0, 2, 3, 4, 5),
    );
    fs.writeFileSync(path.join(dir, 'a.tar.gz'), archive);
    execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
    expect(fs.readFileSync(path.join(dir, 'pkg/run.sh'), 'utf8')).toBe('#!/bin/sh\necho 矿场\n');
    expect(fs.statSync(path.join(dir, 'pkg/run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dir, 'pkg/empty.txt')).size).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'pkg/blob.bin')).equals(binary)).toBe(true);
    expect(fs.readFileSync(path.join(dir, longDir, `${'f'.repeat(80)}.txt`), 'utf8')).toBe('deep');
    expect(fs.statSync(path.join(dir, 'pkg/run.sh')).mtime.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    const listing = execFileSync('tar', ['-tvzf', 'a.tar.gz'], { cwd: dir, encoding: 'utf8' });
    expect(listing).toMatch(/^drwxr-xr-x root\/root\s+0 .* pkg\/$/m);
  });

  it('pads every member to 512-byte blocks and ends with two zero blocks', () => {
    const tar = writeTar([{ name: 'a.txt', data: 'x'.repeat(513) }], 0);
    expect(tar.length).toBe(512 + 1024 + 1024);
    expect(tar.subarray(tar.length - 1024).every((b) => b === 0)).toBe(true);
    expect(tar.subarray(257, 263).toString('ascii')).toBe('ustar\0');
    expect(gunzipSync(writeTarGz([{ name: 'a.txt', data: 'x'.repeat(513) }], 0)).equals(tar)).toBe(true);
  });

  it('refuses a name that does not fit ustar', () => {
    expect(() => writeTar([{ name: 'x'.repeat(101) }])).toThrow(/too long/);
  });
});
