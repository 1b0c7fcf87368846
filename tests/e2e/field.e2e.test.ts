/**
 * The technician's phone workflow end to end: a farm of 40 miners uploaded through the agent uplink, synced
 * by the console into IndexedDB. On a 360 px phone: login lands on /field, search by SN and by IP from the
 * cache, the miner card shows status, hashrate, temperatures, fans, faults and error codes, customer, accident,
 * shelf/seat, identity and age, recent miners newest first; then offline (service worker + cache): reload /field,
 * search and the card still work. On a desktop: login stays on the dashboard, /field is in the sidebar and the card
 * links to the full console.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minerIp, snapshotBatch, uploadBatch } from '../support/miner-snapshots';
import { type ApiSession, createFarmWithMiners, launchBrowser, loginUi, newContext, setOffline, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'field-farm';
const COUNT = 40;
/** Index 12: an S21 (17-character SN); index 19: an S19j Pro missing chips and a hashboard. */
const S21 = { sn: 'SMTTB000000000012', ip: minerIp(12) };
const FAULTY = { ip: minerIp(19), sn: 'JYZZ0000000019' };

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let secret: string;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  secret = await createFarmWithMiners(api, { agentName: 'Field farm', agentKey: FARM }, COUNT, new Date(Date.now() - 5 * 60_000).toISOString());
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until the sync loop has put the whole farm into IndexedDB. */
async function waitForCache(page: Page): Promise<void> {
  await page.getByTestId('field-sync-status').and(page.locator(`[data-count="${COUNT}"]`)).waitFor({ timeout: 30_000 });
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('field-search').fill(text);
  await page.getByTestId('field-results').waitFor();
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('field app on a phone (360 px)', () => {
  let ctx: BrowserContext;
  let page: Page;
  let errors: Error[];

  beforeAll(async () => {
    ctx = await newContext(browser, server.url, { viewport: 'phone', serviceWorkers: 'allow' });
    page = await ctx.newPage();
    errors = trackPageErrors(page);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lands on /field after login and shows how fresh the cache is', async () => {
    await loginUi(page);
    await page.waitForURL((u) => u.pathname === '/field');
    await page.getByTestId('field-home').waitFor();
    await waitForCache(page);
    await expect.poll(() => page.getByTestId('field-sync-status').innerText()).toMatch(/Last synced .* · 40 miners/);
    await page.getByTestId('field-recent-empty').waitFor();
    await noSidewaysScroll(page);
  });

  it('finds a miner by SN as you type and opens its card with every field', async () => {
    // SMTTB00000000001… = the S21s among miners 10–19 (kinds 0–5 and 8): 10, 11, 12, 13, 14, 15, 18.
    await search(page, S21.sn.slice(0, 16).toLowerCase());
    await expect.poll(() => page.getByTestId('field-result-row').count()).toBe(7);
    await page.getByTestId('field-result-row').filter({ hasText: S21.sn }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/field/miner/'));
    const card = page.getByTestId('field-card');
    await card.waitFor();
    expect(await page.getByTestId('field-card-ip').innerText()).toBe(S21.ip);
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(S21.sn);
    expect(await page.getByTestId('field-card-model').innerText()).toBe('Bitmain S21');
    expect(await page.getByTestId('field-card-status').innerText()).toMatch(/online/i);
    expect(await page.getByTestId('field-card-hashrate').innerText()).toMatch(/^\d+(\.\d+)? TH\/s$/);
    expect(await page.getByTestId('field-card-ideal').innerText()).toMatch(/ideal 200(\.00)? TH\/s · \d+(\.\d)?% of ideal/);
    expect(await page.getByTestId('field-card-chip-temp').innerText()).toMatch(/^\d+ °C$/);
    expect(await page.getByTestId('field-card-pcb-temp').innerText()).toMatch(/^\d+ °C$/);
    expect(await page.getByTestId('field-card-fans').innerText()).toMatch(/^[\d,]+ – [\d,]+ rpm$/);
    expect(await page.getByTestId('field-card-faults').innerText()).toBe('No fault');
    expect(await page.getByTestId('field-card-location').innerText()).toBe('Not placed');
    expect(await page.getByTestId('field-card-customer').innerText()).toBe('None');
    expect(await page.getByTestId('field-card-accident').innerText()).toBe('None');
    expect(await page.getByTestId('field-card-as-of').innerText()).toMatch(/As of \d{4}-\d{2}-\d{2} .*\(5 min\. ago\)/);
    expect(await page.getByTestId('field-card-full-detail').getAttribute('href')).toBe(`/device/miner/detail?ip=${encodeURIComponent(S21.ip)}`);
    await noSidewaysScroll(page);
    // The longest IPv4 stays on one line at 360 px (a break inside reads as another address): the status badge moves under it.
    const ipLines = await page.getByTestId('field-card-ip').evaluate((el) => {
      el.textContent = '255.255.255.255';
      return Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
    });
    expect(ipLines).toBe(1);
    await noSidewaysScroll(page);
  });

  it('finds a miner by IP, shows its localised fault labels, and lists recent miners newest first', async () => {
    await page.getByTestId('field-card-back').click();
    await page.getByTestId('field-home').waitFor();
    await expect.poll(() => page.getByTestId('field-recent-row').count()).toBe(1);
    await search(page, FAULTY.ip);
    await page.getByTestId('field-result-row').filter({ hasText: FAULTY.sn }).first().click();
    await page.getByTestId('field-card').waitFor();
    expect(await page.getByTestId('field-card-ip').innerText()).toBe(FAULTY.ip);
    const faults = await page.getByTestId('field-card-faults').innerText();
    expect(faults).toMatch(/missing chip/i);
    expect(faults).toMatch(/hashboard/i);
    // The firmware's error code with its message, as the miner list's error-code column gives it.
    expect(await page.getByTestId('field-card-error-codes').innerText()).toBe('0 chain 2 not found');
    await page.getByTestId('field-card-back').click();
    await expect.poll(() => page.getByTestId('field-recent-row').count()).toBe(2);
    const order = await page.getByTestId('field-recent-row').allInnerTexts();
    expect(order[0]).toContain(FAULTY.ip);
    expect(order[1]).toContain(S21.ip);
    // Enter on a whole SN opens the card directly; an SN the cache does not hold says so.
    await page.getByTestId('field-search').fill('SMTTB000000009999');
    await page.getByTestId('field-no-results').getByText("is not in this farm's cache").waitFor();
    await page.getByTestId('field-search').fill(S21.sn);
    await page.getByTestId('field-search').press('Enter');
    await page.getByTestId('field-card').waitFor();
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(S21.sn);
  });

  it('an open card asks the server for its miner: a newer reading shows at once, without waiting for the farm’s sync', async () => {
    // The card of S21 is open. A reading one minute old, hashrates 3 % up: nothing of substance, so the farm's feed
    // may hold it back for up to 10 minutes; the card's own request brings it.
    const before = await page.getByTestId('field-card-hashrate').innerText();
    await uploadBatch(server.url, FARM, secret, snapshotBatch({ batchSeq: 2, indexes: [12], takenAt: new Date(Date.now() - 60_000).toISOString(), rateFactor: 1.03 }));
    await page.getByTestId('field-card-back').click();
    await page.getByTestId('field-home').waitFor();
    const asked = page.waitForRequest((r) => r.url().includes('/api/sync/miners/row?'));
    await page.getByTestId('field-recent-row').filter({ hasText: S21.ip }).click();
    await asked;
    await expect.poll(() => page.getByTestId('field-card-as-of').innerText()).toMatch(/\(1 min\. ago\)/);
    expect(await page.getByTestId('field-card-hashrate').innerText()).not.toBe(before);
  });

  it('works offline: reload /field, search from the cache and open the card', async () => {
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await page.waitForTimeout(1500); // the persisted query cache is written at most once a second
    await setOffline(ctx, true);
    try {
      await page.goto('/field');
      await page.getByTestId('field-home').waitFor({ timeout: 20_000 });
      await page.getByTestId('field-offline').waitFor();
      await expect.poll(() => page.getByTestId('field-sync-status').getAttribute('data-count')).toBe(String(COUNT));
      await search(page, minerIp(23));
      await page.getByTestId('field-result-row').first().click();
      await page.getByTestId('field-card').waitFor();
      expect(await page.getByTestId('field-card-ip').innerText()).toBe(minerIp(23));
      // Reloading the card itself offline works too.
      await page.reload();
      await page.getByTestId('field-card').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('field-card-sn').innerText()).toBe('SMTTB000000000023');
      await page.getByTestId('field-card-back').click();
      await expect.poll(() => page.getByTestId('field-recent-row').count()).toBe(3);
    } finally {
      await setOffline(ctx, false);
    }
    expect(errors).toEqual([]);
  });

  it('logout drops the phone’s copy of the farm (miners, recent miners); the next login syncs it afresh', async () => {
    /** Miners held in IndexedDB (miner-store.ts buckets) and recently opened ones, read straight from the database. */
    const held = () =>
      page.evaluate(
        () =>
          new Promise<{ miners: number; recent: number }>((resolve, reject) => {
            const open = indexedDB.open('hashfield');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              const tx = db.transaction(['minerBuckets', 'recentMiners']);
              const buckets = tx.objectStore('minerBuckets').getAll();
              const recent = tx.objectStore('recentMiners').count();
              tx.oncomplete = () => {
                resolve({ miners: (buckets.result as { rows: object }[]).reduce((n, b) => n + Object.keys(b.rows).length, 0), recent: recent.result });
                db.close();
              };
            };
          }),
      );
    await page.goto('/field');
    await waitForCache(page);
    expect(await held()).toEqual({ miners: COUNT, recent: 3 });
    await page.getByTestId('field-menu').click();
    await page.getByTestId('field-logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await held()).toEqual({ miners: 0, recent: 0 });
    await loginUi(page);
    await page.waitForURL((u) => u.pathname === '/field');
    await waitForCache(page);
    expect(await held()).toEqual({ miners: COUNT, recent: 0 });
    expect(errors).toEqual([]);
  });
});

describe('field app on a desktop', () => {
  it('keeps the dashboard as landing, offers Field in the sidebar, and the card links to the full console', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await loginUi(page);
    await page.getByTestId('dashboard-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.locator('[data-menu-key="fieldHome"]').click();
    await page.getByTestId('field-home').waitFor();
    await waitForCache(page);
    await search(page, S21.ip);
    await page.getByTestId('field-result-row').first().click();
    await page.getByTestId('field-card').waitFor();
    expect(await page.getByTestId('field-card-sn').innerText()).toBe(S21.sn);
    await page.getByTestId('field-card-full-detail').click();
    await page.waitForURL((u) => u.pathname === '/device/miner/detail');
    await page.getByTestId('miner-detail-page').waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
