/**
 * The miner list's batch "set pools" dialog filled from what the farm keeps, end to end: a farm of 20 miners uploaded
 * through the agent uplink, a customer, three sub-accounts and a two-pool group made through the API. On a desktop:
 * two miners selected, set pools opened, a stale pool 3 typed, the group chosen — pools 1 and 2 get its URLs and
 * workers, pool 3 is cleared, the worker example follows the suffix — then a sub-account searched and picked for
 * pool 2's worker. At 360 px the dialog does not scroll sideways and filling from the group works the same.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFarmWithMiners, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, suitePage, tableRows, trackPageErrors, type ApiSession, VIEWPORTS } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'pool-fill-farm';
const URL1 = 'stratum+tcp://btc.hashfield-pool.com:3333';
const URL2 = 'stratum+ssl://backup.hashfield-pool.com:443';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

/** A sub-account on "Private pool" (saved without an observer test); answers its id. */
async function subAccount(accountName: string): Promise<string> {
  const saved = await api.post<{ id: string }>('/api/subAccountV2/save', {
    agentKey: FARM,
    accountName,
    password: 'pool-secret',
    poolName: 'Private pool',
    coinType: 'BTC',
    observerUrl: 'https://observer.example.com/watch',
  });
  return saved.id;
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await createFarmWithMiners(api, { agentKey: FARM, agentName: 'Pool fill farm' }, 20, new Date().toISOString());
  const customer = await api.post<{ id: string }>('/api/customer/save', {
    agentKey: FARM,
    name: 'Acme Hosting',
    contract: 'Li Wei',
    email: 'ops@acme.example',
    mobile: '',
    areaCode: '',
    electricUnit: 'USD',
    electricPrice: '0.05',
    hostingResult: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 10 }]),
  });
  const first = await subAccount('hfarm01');
  const second = await subAccount('hfarm02');
  await subAccount('zeta_1');
  await api.post('/api/poolgroup/save', {
    agentKey: FARM,
    name: 'Group A',
    customerId: customer.id,
    pool1Url: URL1,
    subAccount1Id: first,
    pool2Url: URL2,
    subAccount2Id: second,
    poolGroupHosting: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 4 }]),
  });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openSetPools(page: Page): Promise<void> {
  await loginUi(page);
  await selectFarm(page, FARM);
  await page.goto('/device/miner');
  await tableRows(page).first().waitFor();
  const boxes = tableRows(page).locator('input[type="checkbox"]');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByTestId('batch-menu').click();
  await page.getByTestId('batch-op-batchSetPool').click();
  await page.getByTestId('batch-dialog').getByTestId('batch-field-poolGroup').waitFor();
}

const value = (page: Page, testId: string) => page.getByTestId(testId).inputValue();

async function fillFromGroup(page: Page): Promise<void> {
  await page.getByTestId('batch-field-pool3Url').fill('stratum+tcp://stale.example:3333');
  await page.getByTestId('batch-field-pool3User').fill('stale');
  await page.getByTestId('batch-field-poolGroup').click();
  await page.getByRole('option', { name: /Group A/ }).click();
  await expect.poll(() => value(page, 'batch-field-pool1Url')).toBe(URL1);
  expect(await value(page, 'batch-field-pool1User')).toBe('hfarm01');
  expect(await value(page, 'batch-field-pool2Url')).toBe(URL2);
  expect(await value(page, 'batch-field-pool2User')).toBe('hfarm02');
  expect(await value(page, 'batch-field-pool3Url')).toBe('');
  expect(await value(page, 'batch-field-pool3User')).toBe('');
}

describe('set pools from a pool group at 1440 px', () => {
  const s = suitePage(() => browser, () => server.url, openSetPools);

  it("fills pools 1–3 from the group, clears the pool it lacks, and the worker example follows", async () => {
    const { page } = s;
    expect(await page.getByTestId('batch-target').innerText()).toContain('2');
    await fillFromGroup(page);
    expect(await value(page, 'batch-field-poolGroup')).toBe('Group A · Acme Hosting');
    await page.getByTestId('batch-field-workerSuffix').click();
    await page.getByRole('option', { name: 'IP', exact: true }).click();
    await expect.poll(() => page.getByTestId('batch-worker-preview').innerText()).toMatch(/^Example worker: hfarm01\.\d+x\d+x\d+x\d+$/);
  });

  it("picks a sub-account for pool 2's worker, searched by name", async () => {
    const { page, errors } = s;
    await page.getByTestId('batch-pool-2-pick').click();
    const dropdown = page.getByTestId('batch-pool-2-subaccounts');
    await dropdown.getByRole('option', { name: /hfarm01/ }).waitFor();
    expect(await dropdown.getByRole('option').count()).toBe(3);
    await dropdown.getByPlaceholder('Search by account or pool name').fill('ZETA');
    await expect.poll(() => dropdown.getByRole('option').count()).toBe(1);
    await dropdown.getByRole('option', { name: /zeta_1/ }).click();
    await expect.poll(() => value(page, 'batch-field-pool2User')).toBe('zeta_1');
    expect(await value(page, 'batch-field-pool1User')).toBe('hfarm01');
    expect(await value(page, 'batch-field-pool2Url')).toBe(URL2);
    // The pools are no longer exactly the group's: the choice is cleared, the fields stay as edited.
    expect(await value(page, 'batch-field-poolGroup')).toBe('');
    expect(errors).toEqual([]);
  });
});

describe('set pools from a pool group at 360 px', () => {
  it('fits the phone width and fills the same', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      const errors = trackPageErrors(page);
      await openSetPools(page);
      const width = VIEWPORTS.phone.width;
      await fillFromGroup(page);
      const dialog = page.getByTestId('batch-dialog').getByRole('dialog');
      expect((await dialog.boundingBox())?.width ?? Infinity).toBeLessThanOrEqual(width);
      for (const id of ['batch-field-pool1Url', 'batch-field-pool2User', 'batch-pool-2-pick']) {
        const box = await page.getByTestId(id).boundingBox();
        expect(box, id).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0), id).toBeLessThanOrEqual(width);
      }
      await page.getByTestId('batch-pool-2-pick').click();
      const dropdown = page.getByTestId('batch-pool-2-subaccounts');
      await dropdown.getByRole('option', { name: /zeta_1/ }).waitFor();
      const box = await dropdown.boundingBox();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      await dropdown.getByRole('option', { name: /zeta_1/ }).click();
      await expect.poll(() => value(page, 'batch-field-pool2User')).toBe('zeta_1');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
