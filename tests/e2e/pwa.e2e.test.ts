/** Installable and offline: manifest, service worker control, offline reload shows the shell (architecture.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { launchBrowser, loginUi, newContext, setOffline, setupAdmin } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  const api = await setupAdmin(server.url);
  await api.post('/api/agent/createv2', { agentName: 'North Hall', agentKey: 'north-hall', noticeEmails: '', agentAddr: '' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** The farm shown in the header: the console's farm picker is an input, the light field app's a native select. */
async function farmShown(page: Page, viewport: 'desktop' | 'phone'): Promise<string> {
  if (viewport === 'desktop') return page.getByTestId('farm-select').inputValue();
  // Started at / the console hands over to the field app with a full load: under CI load that can take a while.
  await page.getByTestId('field-home').waitFor({ timeout: 40_000 });
  return page.getByTestId('farm-select').locator('option:checked').innerText();
}

function pngSize(buf: Buffer): [number, number] {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
}

describe('PWA', () => {
  it('links a valid manifest whose icons are real PNGs of the declared sizes', async () => {
    const html = await (await fetch(server.url + '/')).text();
    const href = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBeTruthy();
    expect(html).toContain('<meta name="theme-color" content="#1c7ed6"');
    const manifest = (await (await fetch(new URL(href!, server.url))).json()) as Manifest;
    expect(manifest.name).toBeTruthy();
    expect(manifest.short_name).toBe('Hashfield');
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBe('/');
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      const res = await fetch(new URL(icon.src, server.url));
      expect(res.status).toBe(200);
      const [w, h] = pngSize(Buffer.from(await res.arrayBuffer()));
      expect(`${w}x${h}`).toBe(icon.sizes);
      sizes.add(`${icon.sizes}${icon.purpose === 'maskable' ? ' maskable' : ''}`);
    }
    expect([...sizes].sort()).toEqual(['192x192', '512x512', '512x512 maskable']);
  });

  it('sends the console compressed: a cold load gets its scripts, styles and API answers as brotli or gzip', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop', serviceWorkers: 'block' });
    const page = await ctx.newPage();
    const seen: Response[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.origin === new URL(server.url).origin && (/\.(?:js|css)$/.test(url.pathname) || url.pathname.startsWith('/api/'))) seen.push(r);
    });
    await loginUi(page);
    await page.getByTestId('dashboard-farm-name').getByText('North Hall').waitFor();
    let files = 0;
    let sent = 0;
    let size = 0;
    for (const r of seen) {
      const body = await r.body().catch(() => null);
      if (!body || body.length < 1024) continue; // answers under 1 KB go as they are
      expect({ url: r.url(), encoding: (await r.allHeaders())['content-encoding'] }).toEqual({ url: r.url(), encoding: expect.stringMatching(/^(?:br|gzip)$/) });
      if (/\.(?:js|css)$/.test(new URL(r.url()).pathname)) {
        files++;
        sent += (await r.request().sizes()).responseBodySize;
        size += body.length;
      }
    }
    expect(files).toBeGreaterThan(3);
    expect(sent).toBeLessThan(size * 0.4); // the build's JavaScript and CSS compress to about a quarter
    await ctx.close();
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`a service worker controls the page and an offline reload shows the shell with the last farm (${viewport})`, async () => {
      const ctx = await newContext(browser, server.url, { viewport, serviceWorkers: 'allow' });
      const page = await ctx.newPage();
      await loginUi(page);
      // A phone lands on the technician's home (/field), a desktop on the dashboard.
      if (viewport === 'phone') await page.getByTestId('field-home').waitFor();
      else await page.getByTestId('dashboard-farm-name').getByText('North Hall').waitFor();
      const scriptURL = await page.evaluate(async () => {
        const reg = await Promise.race([navigator.serviceWorker.ready, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
        return reg?.active?.scriptURL ?? null;
      });
      expect(scriptURL).toBe(`${server.url}/sw.js`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      // Let the persisted query cache write (throttled to 1 s).
      await page.waitForTimeout(1500);

      await setOffline(ctx, true);
      await page.reload();
      await page.getByTestId('app-shell').waitFor({ timeout: 15_000 });
      if (viewport === 'phone') {
        await page.locator('[data-testid="outbox-indicator"][data-online="false"]').waitFor();
        await page.getByTestId('field-home').waitFor();
        expect(await farmShown(page, viewport)).toBe('North Hall');
      } else {
        await page.getByTestId('offline-badge').waitFor();
        await page.getByTestId('dashboard-farm-name').getByText('North Hall').waitFor();
      }
      expect(await page.getByTestId('login-page').count()).toBe(0);
      // A new tab started offline opens on the last farm too (a phone lands on the field app again).
      const second = await ctx.newPage();
      await second.goto('/');
      await second.getByTestId('app-shell').waitFor({ timeout: 15_000 });
      expect(await farmShown(second, viewport)).toBe('North Hall');
      if (viewport === 'phone') {
        // Offline with the farm list in neither the persisted read cache nor the service worker's copy (the console
        // handed over to /field before writing it): the phone landing must not wait for the network for ever.
        await second.evaluate(async () => {
          const raw = localStorage.getItem('hf.query-cache');
          if (raw) {
            const cache = JSON.parse(raw) as { clientState: { queries: { queryHash: string }[] } };
            cache.clientState.queries = cache.clientState.queries.filter((q) => !q.queryHash.includes('farm-options'));
            localStorage.setItem('hf.query-cache', JSON.stringify(cache));
          }
          const shell = await caches.open('hf-shell-api');
          for (const req of await shell.keys()) if (new URL(req.url).pathname === '/api/options/agent') await shell.delete(req);
        });
        const third = await ctx.newPage();
        await third.goto('/');
        expect(await farmShown(third, viewport)).toBe('North Hall');
      }
      await setOffline(ctx, false);
      await ctx.close();
    });
  }
});
