/**
 * The server out of reach while the device is "online" (farm Wi-Fi whose access point has no route to the
 * server): navigator.onLine stays true, every /api request is refused (`context.route` → connectionrefused, the
 * service worker's own fetches included). In Chromium with the service worker:
 * - desktop: a note made on the field card waits in the outbox; the field indicator and status line say
 *   "Server unreachable"; the console header shows the server-unreachable badge (with its hint) and the pending
 *   count; when the route is lifted (no `online` event: the network never went away) the probe notices within its
 *   backoff, the badge goes away, the outbox drains and the note is on the server once;
 * - phone (360 px): the same on the field card (the save toast says the change is sent when the server answers)
 *   and in the console's phone header; the header stays one line and nothing is wider than the phone. Back on the
 *   field home, "Sync now" asks the server at once when it is back, and the changes go out.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiSession, createFarmWithMiners, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors, waitForTestId } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';
import { addNote, minerRow, notesOf } from '../support/e2e-miner-card';
import { minerIp } from '../support/miner-snapshots';

const KEY = 'ridge-hall';
const COUNT = 6;
/** The probe's longest wait (connectivity.ts PROBE_BACKOFF_MS) plus room for the probe and the page. */
const RECOVERY_MS = 30_000 + 15_000;

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await createFarmWithMiners(api, { agentName: 'Ridge Hall', agentKey: KEY }, COUNT, new Date(Date.now() - 5 * 60_000).toISOString());
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The field cache filled, then the miner card opened from it. */
async function openCard(page: Page, ip: string): Promise<void> {
  const { id } = await minerRow(api, KEY, ip);
  if (!new URL(page.url()).pathname.startsWith('/field')) await page.goto('/field');
  await page.getByTestId('field-sync-status').and(page.locator(`[data-count="${COUNT}"]`)).waitFor({ timeout: 30_000 });
  await page.goto(`/field/miner/${id}`);
  await page.getByTestId('field-miner-page').waitFor({ timeout: 20_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
}

/** Every /api request refused at the network level (the page's and the service worker's). */
async function cutServer(ctx: BrowserContext): Promise<void> {
  await ctx.route('**/api/**', (route) => route.abort('connectionrefused'));
}

async function restoreServer(ctx: BrowserContext): Promise<void> {
  await ctx.unrouteAll({ behavior: 'ignoreErrors' });
}

const indicator = (page: Page, reason: string) => page.locator(`[data-testid="outbox-indicator"][data-reason="${reason}"]`);

async function fitsPhone(page: Page, testId: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const box = await page.getByTestId(testId).boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
}

async function headerHeight(page: Page): Promise<number> {
  return (await page.locator('header').first().boundingBox())?.height ?? 0;
}

describe('server unreachable while the device is online', () => {
  it('desktop: badge and pending count while refused, then the probe sees the server, the badge goes and the outbox drains', async () => {
    const ip = minerIp(0);
    const ctx = await newContext(browser, server.url, { viewport: 'desktop', serviceWorkers: 'allow' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    try {
      await loginUi(page);
      await page.getByTestId('dashboard-page').waitFor();
      await page.waitForTimeout(1500); // the persisted query cache (throttled 1 s): the console reopens from it below
      await openCard(page, ip);
      // Through the service worker while the server answers: a fresh copy, not marked.
      expect(await page.evaluate(async () => (await fetch('/api/config/public')).headers.get('X-HF-Fallback'))).toBeNull();

      await cutServer(ctx);
      await addNote(page, 'Rack 4: fan 2 rattles');
      await indicator(page, 'server-unreachable').waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('1');
      expect(await page.getByTestId('outbox-indicator').getAttribute('data-online')).toBe('false');
      // The field home's sync line says which: the server, not the device.
      await page.getByTestId('field-card-back').click();
      await page.getByTestId('field-server-unreachable').waitFor();
      expect(await page.getByTestId('field-offline').count()).toBe(0);

      // The console (a full page load from the service worker, its reads from the caches): the header badge.
      await page.goto('/');
      await waitForTestId(page, 'app-shell', 20_000);
      const badge = page.getByTestId('offline-badge');
      await badge.and(page.locator('[data-reason="server-unreachable"]')).waitFor({ timeout: 20_000 });
      expect(await badge.innerText()).toBe('Server unreachable');
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('1');
      expect(await page.getByTestId('outbox-indicator').getAttribute('data-reason')).toBe('server-unreachable');
      // The service worker still answers the shell's reads from its copy, and says it is one (sw.ts).
      expect(await page.evaluate(async () => (await fetch('/api/config/public')).headers.get('X-HF-Fallback'))).toBe('1');
      await badge.hover();
      await page.getByText('Changes are kept on this device and sent when the server answers again.').first().waitFor();
      expect(await notesOf(api, KEY, ip)).toHaveLength(0);

      // The route lifted: no `online` event (the network never went away); the probe finds the server.
      await restoreServer(ctx);
      const lifted = Date.now();
      await badge.waitFor({ state: 'detached', timeout: RECOVERY_MS });
      expect(Date.now() - lifted).toBeLessThan(RECOVERY_MS);
      await indicator(page, 'online').waitFor();
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending'), { timeout: 20_000 }).toBe('0');
      const notes = await notesOf(api, KEY, ip);
      expect(notes.map((n) => n.text)).toEqual(['Rack 4: fan 2 rattles']);
      expect(errors.map((e) => e.message)).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 180_000);

  it('phone (360 px): the field card and the console header say so and fit; the changes go out when the server answers', async () => {
    const ip = minerIp(1);
    const ctx = await newContext(browser, server.url, { viewport: 'phone', serviceWorkers: 'allow' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    try {
      await loginUi(page); // a phone lands on the field app
      // The console once while the server answers: its start-up reads reach the persisted read cache and the
      // service worker's copy (the phone landing hands over to /field before that), so it opens without the server.
      await page.goto('/device/miner');
      await waitForTestId(page, 'app-shell');
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      await page.waitForFunction(() => (localStorage.getItem('hf.query-cache') ?? '').includes('farm-options'), undefined, { timeout: 15_000 });
      await page.waitForTimeout(1500); // the persisted query cache (throttled 1 s)
      await openCard(page, ip);
      const height = await headerHeight(page);

      await cutServer(ctx);
      await addNote(page, 'Shelf B: dust filter clogged');
      await indicator(page, 'server-unreachable').waitFor({ timeout: 20_000 });
      // Known unreachable now: the next save says where the change waits.
      await addNote(page, 'Shelf B: PSU hums');
      await page.getByText('Saved — will be sent when the server answers').first().waitFor();
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('2');
      await page.getByTestId('outbox-pending-count').getByText('2').waitFor();
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
      await fitsPhone(page, 'outbox-indicator');
      expect(await headerHeight(page)).toBe(height);
      await page.getByTestId('field-card-back').click();
      await page.getByTestId('field-server-unreachable').waitFor();
      await fitsPhone(page, 'field-server-unreachable');
      expect(await headerHeight(page)).toBe(height);

      // The console's phone header (no room for the word badge: the indicator says it).
      await page.goto('/device/miner');
      await waitForTestId(page, 'app-shell', 20_000);
      await indicator(page, 'server-unreachable').waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending')).toBe('2');
      expect(await page.getByTestId('outbox-indicator').getAttribute('aria-label')).toBe(
        'Sync and offline changes: Server unreachable · 2 changes waiting. Changes are kept on this device and sent when the server answers again.',
      );
      await fitsPhone(page, 'outbox-indicator');
      expect(await notesOf(api, KEY, ip)).toHaveLength(0);

      // Back in the field app, the technician does not wait for the next probe: "Sync now" asks the server at once.
      await page.goto('/field');
      await page.getByTestId('field-server-unreachable').waitFor({ timeout: 20_000 });
      await restoreServer(ctx);
      const probed = page.waitForRequest((r) => r.url().includes('/api/config/public'), { timeout: 5_000 });
      await page.getByTestId('field-sync-now').click();
      await probed;
      await page.getByTestId('field-server-unreachable').waitFor({ state: 'detached', timeout: 10_000 });
      await indicator(page, 'online').waitFor({ timeout: 10_000 });
      await expect.poll(() => page.getByTestId('outbox-indicator').getAttribute('data-pending'), { timeout: 20_000 }).toBe('0');
      expect((await notesOf(api, KEY, ip)).map((n) => n.text).sort()).toEqual(['Shelf B: PSU hums', 'Shelf B: dust filter clogged']);
      expect(errors.map((e) => e.message)).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 180_000);
});
