/**
 * Camera scanning with Chromium's fake camera: a Code 128 label rendered with bwip-js and turned into a y4m
 * video by ffmpeg (tests/support/make-label-video.ts) is what the camera sees. A label carrying the
 * 17-character SN of a cached miner opens its card; a 16-character label shows the SN-length message while
 * the scanner keeps scanning, and manual entry in the same dialog checks the same rule; scanning works offline
 * (service worker + cache); a refused camera is explained; the scanner's code is fetched again after a dropped
 * connection, and a reload is offered when it cannot load. Chromium reads one
 * fake-camera file per launch, so each label gets its own browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minerIp } from '../support/miner-snapshots';
import { createFarmWithMiners, launchBrowser, loginUi, newContext, setOffline, setupAdmin, trackPageErrors, waitForTestId } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';
import { makeLabelVideo } from '../support/make-label-video';

const FARM = 'scan-farm';
const COUNT = 20;
/** Miner 14 is an S21: its SN has 17 characters. */
const SN = 'SMTTB000000000014';
const SHORT = SN.slice(0, 16);

let server: E2EServer;
let dir: string;
const browsers: Browser[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hf-labels-'));
  server = await startServer();
  const api = await setupAdmin(server.url);
  await createFarmWithMiners(api, { agentName: 'Scan farm', agentKey: FARM }, COUNT, new Date().toISOString());
}, 180_000);

afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function cameraBrowser(label: string, name: string): Promise<Browser> {
  const video = await makeLabelVideo(dir, name, label);
  const browser = await launchBrowser({
    extraArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
  browsers.push(browser);
  return browser;
}

/**
 * Logged in on a phone, the farm's miners in the cache, Scan pressed. With `waitOpen` it also waits for the
 * scanner to show; a label the scanner accepts can close it again before a wait sees it, so that case waits
 * for the card instead.
 */
async function openScanner(
  browser: Browser,
  grant = true,
  serviceWorkers: 'allow' | 'block' = 'block',
  waitOpen = true,
): Promise<{ page: Page; errors: Error[] }> {
  const ctx = await newContext(browser, server.url, { viewport: 'phone', serviceWorkers });
  if (grant) await ctx.grantPermissions(['camera'], { origin: server.url });
  const page = await ctx.newPage();
  const errors = trackPageErrors(page);
  await loginUi(page);
  await page.waitForURL((u) => u.pathname === '/field');
  await page.getByTestId('field-sync-status').and(page.locator(`[data-count="${COUNT}"]`)).waitFor({ timeout: 30_000 });
  await page.getByTestId('field-scan').click();
  if (waitOpen) await waitForTestId(page, 'barcode-scanner');
  return { page, errors };
}

describe('scanning an SN label with the camera', () => {
  it('a 17-character Code 128 label opens the miner card from the cache, offline too', async () => {
    const { page, errors } = await openScanner(await cameraBrowser(SN, 'sn-17'), true, 'allow', false);
    await waitForTestId(page, 'field-card', 30_000);
    expect(new URL(page.url()).pathname).toMatch(/^\/field\/miner\//);
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(SN);
    expect(await page.getByTestId('field-card-ip').innerText()).toBe(minerIp(14));

    // Offline: the service worker serves the app and the scanner's code, the cache answers the lookup.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await page.waitForTimeout(1500); // the persisted query cache is written at most once a second
    await setOffline(page.context(), true);
    await page.goto('/field');
    await page.getByTestId('field-offline').waitFor({ timeout: 20_000 });
    await page.getByTestId('field-scan').click();
    await page.getByTestId('field-card').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(SN);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a 16-character label shows the SN-length message and keeps scanning; manual entry checks the same rule', async () => {
    const { page, errors } = await openScanner(await cameraBrowser(SHORT, 'sn-16'));
    const message = page.getByTestId('scanner-message');
    await message.waitFor({ timeout: 20_000 });
    expect(await message.innerText()).toBe('SN must be 17 characters (this one has 16).');
    expect(await page.getByTestId('barcode-scanner').getAttribute('data-camera')).toBe('scanning');
    await page.waitForTimeout(2500); // the same label keeps being read: still no card
    expect(new URL(page.url()).pathname).toBe('/field');
    expect(await page.getByTestId('field-card').count()).toBe(0);

    await page.getByTestId('scanner-manual-input').fill('SMTTB000000009999');
    await page.getByTestId('scanner-manual-submit').click();
    await page.getByTestId('scanner-notice').getByText("is not in this farm's cache").waitFor();
    await page.getByTestId('scanner-manual-input').fill(SN.toLowerCase());
    await page.getByTestId('scanner-manual-submit').click();
    await page.getByTestId('field-card').waitFor();
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(SN);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("the scanner's code is fetched again after a dropped connection; when it cannot load, a reload is offered", async () => {
    const browser = await launchBrowser({ extraArgs: ['--use-fake-device-for-media-stream'] });
    browsers.push(browser);
    const ctx = await newContext(browser, server.url, { viewport: 'phone', serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.waitForURL((u) => u.pathname === '/field');
    let dropped = 0;
    let dropAll = false;
    await page.route(/\/assets\/scanner-host-[^/?]*\.js(\?|$)/, async (route) => {
      if (dropAll || dropped < 2) {
        dropped++;
        await route.abort('connectionreset');
      } else await route.continue();
    });
    await page.getByTestId('field-scan').click();
    await page.getByTestId('barcode-scanner').waitFor({ timeout: 20_000 });
    expect(dropped).toBe(2);
    await page.getByTestId('field-scan-dialog').getByRole('button', { name: 'Close' }).click();

    // A fresh page (the loaded chunk is kept by the module map), this time the chunk never arrives.
    dropAll = true;
    dropped = 0;
    await page.reload();
    await page.getByTestId('field-scan').click();
    const problem = page.getByTestId('field-load-error');
    await problem.waitFor({ timeout: 20_000 });
    expect(dropped).toBeGreaterThanOrEqual(3); // the first try and two more (a preload may add one)
    expect(await problem.innerText()).toContain('This part of the app could not load');
    await expect.poll(() => page.getByTestId('field-home').count()).toBe(1); // the rest of the page stays

    // The dialog's own code lost: the message comes as a dialog that closes; reloaded with the network back, Scan works.
    await page.unrouteAll();
    await page.route(/\/assets\/scan-dialog-[^/?]*\.js(\?|$)/, (route) => route.abort('connectionreset'));
    await page.reload();
    await page.getByTestId('field-scan').click();
    const dialog = page.getByTestId('field-load-error-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.unrouteAll();
    await page.reload();
    await page.getByTestId('field-scan').click();
    await page.getByTestId('barcode-scanner').waitFor({ timeout: 20_000 });
    await ctx.close();
  });

  it('a refused camera permission is explained and manual entry still opens the card', async () => {
    const browser = await launchBrowser({ extraArgs: ['--use-fake-device-for-media-stream'] });
    browsers.push(browser);
    const { page, errors } = await openScanner(browser, false);
    const problem = page.getByTestId('scanner-camera-problem');
    await problem.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('barcode-scanner').getAttribute('data-camera')).toBe('denied');
    expect(await problem.innerText()).toContain('Camera access is blocked');
    await page.getByTestId('scanner-manual-input').fill(SN);
    await page.getByTestId('scanner-manual-submit').click();
    await page.getByTestId('field-card').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
