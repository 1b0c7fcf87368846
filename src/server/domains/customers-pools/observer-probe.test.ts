import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeObserver, readObserverHtml, readObserverJson } from './observer-probe';
import type { Resolve } from './public-address';

describe('observer page parsing', () => {
  it('reads status / hashP / unit JSON, nested data, and refuses another coin or a failure status', () => {
    expect(readObserverJson({ status: 0, coin: 'BTC', hashP: 1.25, unit: 'PH/s' }, 'BTC')).toEqual({ hashP: 1.25, unit: 'PH/s' });
    expect(readObserverJson({ code: 0, data: { hashrate: '512.5', unit: 'th' } }, 'BTC')).toEqual({ hashP: 512.5, unit: 'TH/s' });
    expect(readObserverJson({ status: 0, coin: 'BTC', hashP: 1, unit: 'PH/s' }, 'LTC')).toBeNull();
    expect(readObserverJson({ status: 1, msg: 'not found' }, 'BTC')).toBeNull();
    expect(readObserverJson({ hashP: 1, unit: 'furlongs' }, 'BTC')).toBeNull();
  });
  it('reads the simulator HTML and a plain "Hashrate: value unit" text', () => {
    expect(readObserverHtml('<p>Hashrate: <span id="hashrate" data-unit="TH/s">843.2</span> TH/s</p>')).toEqual({ hashP: 843.2, unit: 'TH/s' });
    expect(readObserverHtml('<div>Hash rate: 12.5 PH/s</div>')).toEqual({ hashP: 12.5, unit: 'PH/s' });
    expect(readObserverHtml('<html>nothing</html>')).toBeNull();
  });
});

describe('the observer probe over real sockets', () => {
  let hits = 0;
  let port = 0;
  const page = JSON.stringify({ status: 0, hashP: 12.5, unit: 'TH/s' });
  const server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/gzip') res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync(page));
    else if (req.url === '/huge') res.writeHead(200, { 'content-type': 'text/html' }).end(`<b id="hashrate" data-unit="TH/s">7</b>${'x'.repeat(3 * 1024 * 1024)}`);
    else if (req.url === '/stall') res.writeHead(200, { 'content-type': 'application/json' }).write('{"status":0,');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(page);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a name that resolves to a private address at connect time is never fetched (no check-then-fetch gap to rebind in)', async () => {
    let calls = 0;
    // a rebinding DNS: the first answer private, later ones public, or the other way round — only one is ever asked
    const rebinding: Resolve = async () => (++calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '8.8.8.8', family: 4 }]);
    hits = 0;
    expect(await probeObserver(`http://observer.example:${port}/o`, 'BTC', { resolve: rebinding, timeoutMs: 2000 })).toEqual({ ok: false, reason: 'address not public' });
    expect(calls).toBe(1);
    expect(hits).toBe(0);
    // the same page by its loopback address with OBSERVER_ALLOW_PRIVATE: fetched
    expect(await probeObserver(`http://127.0.0.1:${port}/o`, 'BTC', { allowPrivate: true })).toEqual({ ok: true, hashP: 12.5, unit: 'TH/s' });
    expect(hits).toBe(1);
  });

  it('reads compressed pages, at most 1 MB of a page, and gives up on a page that stops half-way', async () => {
    expect(await probeObserver(`http://127.0.0.1:${port}/gzip`, 'BTC', { allowPrivate: true })).toEqual({ ok: true, hashP: 12.5, unit: 'TH/s' });
    expect(await probeObserver(`http://127.0.0.1:${port}/huge`, 'BTC', { allowPrivate: true })).toEqual({ ok: true, hashP: 7, unit: 'TH/s' });
    const t0 = Date.now();
    const stalled = await probeObserver(`http://127.0.0.1:${port}/stall`, 'BTC', { allowPrivate: true, timeoutMs: 300 });
    expect(stalled.ok).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
