import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

describe('precompressDir', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes .br and .gz beside text files of 1 KB and more, in every folder, and nothing else', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'hf-precompress-'));
    mkdirSync(path.join(dir, 'assets', 'deep'), { recursive: true });
    const js = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => `row-${i}`))};\n`;
    const css = `.shell{display:flex}\n`.repeat(100);
    writeFileSync(path.join(dir, 'index.html'), `<!doctype html>${'<p>console</p>'.repeat(100)}`);
    writeFileSync(path.join(dir, 'assets', 'deep', 'chunk.js'), js);
    writeFileSync(path.join(dir, 'assets', 'style.css'), css);
    writeFileSync(path.join(dir, 'assets', 'small.js'), 'export {};\n');
    writeFileSync(path.join(dir, 'icon.png'), Buffer.alloc(4096, 7));

    const r = await precompressDir(dir);
    expect(r.files).toBe(3);
    expect(r.brBytes).toBeLessThan(r.bytes / 4);
    expect(r.gzBytes).toBeLessThan(r.bytes / 4);
    for (const [rel, text] of [['assets/deep/chunk.js', js], ['assets/style.css', css]] as const) {
      const file = path.join(dir, rel);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(text);
      expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(text);
    }
    expect(existsSync(path.join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(path.join(dir, 'assets', 'small.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'icon.png.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'icon.png.gz'))).toBe(false);
  });
});
