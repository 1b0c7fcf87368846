import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressBody } from './compression';

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, as browsers offer them', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
  });

  it('follows weights, names in any case, x-gzip, the star and repeated headers', () => {
    expect(chooseEncoding('br;q=0.2, gzip;q=0.9')).toBe('gzip');
    expect(chooseEncoding('BR;Q=0, GZIP')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('x-gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(chooseEncoding('identity, *;q=0')).toBeNull();
    expect(chooseEncoding(['gzip', 'br'])).toBe('br');
    expect(chooseEncoding('br;q=abc, gzip')).toBe('gzip');
  });
});

describe('compressBody', () => {
  it('round-trips text in both encodings, smaller than it was', async () => {
    const text = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ ip: `10.0.0.${i}`, model: 'S21', rate: 190000 + i })));
    const br = await compressBody(text, 'br');
    const gz = await compressBody(Buffer.from(text), 'gzip');
    expect(brotliDecompressSync(br).toString()).toBe(text);
    expect(gunzipSync(gz).toString()).toBe(text);
    expect(br.length).toBeLessThan(text.length / 4);
    expect(gz.length).toBeLessThan(text.length / 4);
  });
});

describe('compressBody beyond the event-loop size', () => {
  it('compresses a large answer (an export) on the thread pool, same bytes back', async () => {
    const text = 'ip,sn,model\n'.concat(Array.from({ length: 20_000 }, (_, i) => `10.0.${i >> 8}.${i & 255},SN${String(i).padStart(15, '0')},S21\n`).join(''));
    expect(text.length).toBeGreaterThan(256 * 1024);
    const pending = compressBody(text, 'br');
    expect(pending).toBeInstanceOf(Promise);
    expect(brotliDecompressSync(await pending).toString()).toBe(text);
    expect(gunzipSync(await compressBody(text, 'gzip')).toString()).toBe(text);
  });
});
