/**
 * Compressed answers (src/server/plugins/compression.ts) and the console's precompressed files (app.ts,
 * src/server/precompress.ts): what a browser that accepts brotli or gzip receives, what a caller that accepts
 * neither receives, and that both decode to the same bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '@server/precompress';
import { minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, createFarm, createTestApp, setupAdmin, uploadCycle } from './harness';

/** The answer's body as the browser sees it after undoing its Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  const enc = res.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (enc === 'gzip') return gunzipSync(raw).toString('utf8');
  if (enc !== undefined) throw new Error(`unexpected content-encoding ${String(enc)}`);
  return raw.toString('utf8');
}

describe('compressed API answers', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  const listUrl = '/api/miner/list?agentKey=zip-farm&pageSize=50';
  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'zip-farm');
    const takenAt = new Date().toISOString();
    await uploadCycle(t.app, farm, 1, Array.from({ length: 50 }, (_, i) => minerSnapshot(i, { takenAt })));
  });
  afterAll(async () => t.close());

  it('sends a 50-row list page as brotli, or gzip, or plain, each decoding to the same JSON', async () => {
    const plain = await admin.request({ method: 'GET', url: listUrl });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const page = JSON.parse(plain.body) as { data: { list: unknown[]; total: number } };
    expect(page.data.list).toHaveLength(50);
    const plainBytes = plain.rawPayload.length;
    expect(plainBytes).toBeGreaterThan(50_000);

    const browser = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(browser.headers['content-encoding']).toBe('br');
    expect(browser.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(browser.headers['content-length'])).toBe(browser.rawPayload.length);
    expect(browser.rawPayload.length).toBeLessThan(plainBytes / 8);

    const plainHttp = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(plainHttp.headers['content-encoding']).toBe('gzip');
    expect(plainHttp.rawPayload.length).toBeLessThan(plainBytes / 6);

    // The rows are read fresh on every request, so compare what does not move between requests.
    for (const res of [browser, plainHttp]) {
      const other = JSON.parse(decoded(res)) as typeof page;
      expect(other.data.total).toBe(page.data.total);
      expect(other.data.list.map((r) => (r as { id: string }).id)).toEqual(page.data.list.map((r) => (r as { id: string }).id));
    }
  });

  it('follows the weights of Accept-Encoding: q=0 refuses an encoding, identity alone gets plain bytes', async () => {
    const noBr = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'br;q=0, gzip;q=0.8' } });
    expect(noBr.headers['content-encoding']).toBe('gzip');
    const gzipFirst = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'br;q=0.5, gzip' } });
    expect(gzipFirst.headers['content-encoding']).toBe('gzip');
    const identity = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body)).toMatchObject({ code: 0 });
    const star = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': '*' } });
    expect(star.headers['content-encoding']).toBe('br');
  });

  it('leaves answers under 1 KB plain (an empty page, an error), still saying they vary by encoding', async () => {
    const empty = await admin.request({ method: 'GET', url: `${listUrl}&keyword=no-such-miner`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(empty.statusCode).toBe(200);
    expect(empty.rawPayload.length).toBeLessThan(1024);
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(empty.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(empty.body)).toMatchObject({ code: 0, data: { total: 0 } });
    const bad = await admin.request({ method: 'GET', url: '/api/miner/list?agentKey=zip-farm&pageSize=0', headers: { 'accept-encoding': 'br, gzip' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(bad.body)).toMatchObject({ code: expect.anything() });
  });

  it('still takes the agent’s gzip uploads, and answers the agent (no Accept-Encoding) plainly', async () => {
    const takenAt = new Date(Date.now() + 60_000).toISOString();
    await uploadCycle(t.app, farm, 2, Array.from({ length: 50 }, (_, i) => minerSnapshot(i, { takenAt })));
    const res = await admin.request({ method: 'GET', url: listUrl, headers: { 'accept-encoding': 'gzip' } });
    const rows = (JSON.parse(decoded(res)) as { data: { list: { takenAt: string }[] } }).data.list;
    expect(rows.every((r) => r.takenAt === takenAt)).toBe(true);
  });
});

describe('precompressed console files', () => {
  let t: TestApp;
  let dist: string;
  const big = (label: string) => `/* ${label} */\n${Array.from({ length: 400 }, (_, i) => `export const v${i} = '${label}-${i}';`).join('\n')}\n`;
  const files: Record<string, string> = {
    'index.html': `<!doctype html><html><head><title>Hashfield</title></head><body>${'<div class="shell"></div>'.repeat(80)}</body></html>`,
    'sw.js': big('service worker'),
    'assets/index-abc123.js': big('bundle'),
    'assets/tiny-abc123.js': 'export const t = 1;\n',
  };
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'hf-precompressed-'));
    mkdirSync(path.join(dist, 'assets'));
    for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(dist, rel), text);
    await precompressDir(dist);
    t = await createTestApp({ distDir: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });
  const get = (url: string, encoding?: string) => t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends an asset as the sibling the browser accepts, with its type and its long cache', async () => {
    for (const [encoding, expected] of [['br, gzip', 'br'], ['gzip', 'gzip'], [undefined, undefined]] as const) {
      const res = await get('/assets/index-abc123.js', encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded(res)).toBe(files['assets/index-abc123.js']);
      if (expected) expect(res.rawPayload.length).toBeLessThan(files['assets/index-abc123.js']!.length / 3);
    }
    const tiny = await get('/assets/tiny-abc123.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe(files['assets/tiny-abc123.js']);
  });

  it('keeps no-cache on the compressed shell and service worker, also for a console route', async () => {
    for (const url of ['/sw.js', '/', '/device/miner']) {
      const res = await get(url, 'gzip, deflate, br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res)).toBe(url === '/sw.js' ? files['sw.js'] : files['index.html']);
    }
  });
});
