/**
 * Off-shelf maintenance (/unshelve-miner/maintain) end to end, on a farm of 20 miners uploaded through the agent
 * uplink with 4 of them taken off shelf by the batch operation. On a desktop: the 4 await repair; two get "onsite
 * repair" with a note, the counts and the status filter follow, the search finds the note; one is scrapped, and
 * "back on shelf" on it and a repaired one puts only the repaired one back (the scrapped one stays, said so). At
 * 360 px the page does not scroll sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minerIp } from '../support/miner-snapshots';
import { createFarmWithMiners, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, suitePage, tableRowKeys, tableRows, type ApiSession, VIEWPORTS } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'maint-farm';
const OFF = [2, 3, 4, 5].map(minerIp);

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await createFarmWithMiners(api, { agentKey: FARM, agentName: 'Maintenance farm' }, 20, new Date().toISOString());
  await api.post('/api/minerv2/batchOffline', { agentKey: FARM, ips: OFF.join(',') });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rows = tableRows;
const rowIps = tableRowKeys;
const statusOf = (page: Page, ip: string) => page.locator(`[data-row-key="${ip}"] [data-testid^="repair-"]`).getAttribute('data-testid');

async function openPage(page: Page): Promise<void> {
  await loginUi(page);
  await selectFarm(page, FARM);
  await page.goto('/unshelve-miner/maintain');
  await page.getByTestId('maintain-page').waitFor();
}

async function select(page: Page, ips: string[]): Promise<void> {
  for (const ip of ips) await page.locator(`[data-row-key="${ip}"] input[type="checkbox"]`).check();
}

async function setStatus(page: Page, ips: string[], status: string, note?: string): Promise<void> {
  await select(page, ips);
  await page.getByTestId('maintain-set-status').click();
  await page.getByTestId('maintain-status').click();
  await page.getByRole('option', { name: status, exact: true }).click();
  if (note !== undefined) await page.getByTestId('maintain-note').fill(note);
  await page.getByTestId('maintain-save').click();
  await page.getByTestId('maintain-dialog').waitFor({ state: 'detached' });
}

describe('off-shelf maintenance at 1440 px', () => {
  const s = suitePage(() => browser, () => server.url, openPage);

  it('tracks the repair of the miners taken off shelf and puts the repaired ones back', async () => {
    const { page, errors } = s;
    await expect.poll(async () => (await rowIps(page)).sort(), { timeout: 15_000 }).toEqual([...OFF].sort());
    expect(await page.getByTestId('maintain-filter-awaiting').innerText()).toBe('Awaiting repair 4');

    await setStatus(page, OFF.slice(0, 2), 'Onsite repair', 'fan 2 replaced');
    await expect.poll(() => page.getByTestId('maintain-filter-onsite').innerText()).toBe('Onsite repair 2');
    expect(await page.getByTestId('maintain-filter-awaiting').innerText()).toBe('Awaiting repair 2');
    expect(await page.locator(`[data-row-key="${OFF[0]}"]`).innerText()).toContain('fan 2 replaced');

    await page.getByTestId('maintain-filter-onsite').click();
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual(OFF.slice(0, 2).sort());
    await page.getByTestId('maintain-filter-all').click();
    await page.getByTestId('maintain-search').fill('fan 2');
    await page.getByTestId('maintain-search').press('Enter');
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual(OFF.slice(0, 2).sort());
    await page.getByTestId('maintain-search').fill('');
    await page.getByTestId('maintain-search').press('Enter');
    await expect.poll(async () => (await rowIps(page)).length).toBe(4);

    await setStatus(page, [OFF[0]!], 'Repaired, pending shelf');
    await setStatus(page, [OFF[2]!], 'Scrapped');
    await expect.poll(() => statusOf(page, OFF[2]!)).toBe('repair-scrapped');
    expect(await page.locator(`[data-row-key="${OFF[0]}"]`).innerText()).toContain('fan 2 replaced'); // an empty note keeps it

    await select(page, [OFF[0]!, OFF[2]!]);
    await page.getByTestId('maintain-on-shelf').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Back on shelf' }).click();
    await page.getByText('1 miner is back on shelf · 1 scrapped miner stays off shelf: give it another status first').waitFor();
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual([OFF[1], OFF[2], OFF[3]].sort());
    const list = await api.get<{ list: { ip: string }[] }>('/api/miner/list', { agentKey: FARM, pageSize: 100 });
    expect(list.list.map((m) => m.ip)).toContain(OFF[0]);
    expect(errors).toEqual([]);
  });
});

describe('off-shelf maintenance at 360 px', () => {
  it('fits the phone width', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      await openPage(page);
      await rows(page).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      // The status filter's buttons are finger-size (32 px tall, 22 px on the desktop).
      const filters = await page.getByTestId('maintain-filter').getByRole('button').all();
      expect(filters.length).toBeGreaterThan(1);
      for (const button of filters) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(32);
    } finally {
      await context.close();
    }
  }, 120_000);
});
