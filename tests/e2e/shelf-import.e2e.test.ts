/**
 * Batch on/off shelf from a file (/setting/agent/online) end to end, on a farm of 20 miners uploaded through the
 * agent uplink. On a desktop: an Excel sheet (header, a right SN in lower case, a wrong SN, no SN, an IP no miner
 * has, a line that is not an IP) is checked row by row, the outcome filters narrow the rows, the wrong-SN row is
 * left alone until it is ticked, the miners go off shelf (off-shelf records, gone from the miner list), and the same
 * sheet puts them back on shelf; the Excel template downloads with its three columns. At 360 px a txt list is
 * checked and applied without the page scrolling sideways.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import type { OffShelfRow } from '@shared/schemas/miner-records';
import { minerIp } from '../support/miner-snapshots';
import { createFarmWithMiners, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, suitePage, tableRowKeys, type ApiSession, VIEWPORTS } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'shelf-farm';
const COUNT = 20;

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await createFarmWithMiners(api, { agentKey: FARM, agentName: 'Shelf farm' }, COUNT, new Date().toISOString());
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const offShelf = async () => (await api.get<{ list: OffShelfRow[] }>('/api/miner/offShelfList', { agentKey: FARM, pageSize: 100 })).list.map((r) => r.ip).sort();
const snOf = async (ip: string) => (await api.get<{ sn: string }>('/api/miner/detail', { agentKey: FARM, ip })).sn;
const rowIps = tableRowKeys;

async function openPage(page: Page): Promise<void> {
  await loginUi(page);
  await selectFarm(page, FARM);
  await page.goto('/setting/agent/online');
  await page.getByTestId('shelf-import-page').waitFor();
  await page.getByTestId('shelf-empty').waitFor();
}

async function applyAndConfirm(page: Page, label: string): Promise<void> {
  await expect.poll(() => page.getByTestId('shelf-apply').innerText()).toBe(label);
  await page.getByTestId('shelf-apply').click();
  await page.getByRole('dialog').getByRole('button', { name: label }).click();
  await page.getByTestId('shelf-result').waitFor();
}

describe('batch on/off shelf at 1440 px', () => {
  const s = suitePage(() => browser, () => server.url, openPage);

  it('checks an Excel sheet row by row, skips the wrong SN until ticked, takes the miners off shelf and puts them back', async () => {
    const { page, errors } = s;
    const [a, b, c] = [minerIp(1), minerIp(2), minerIp(3)];
    const xlsx = await writeXlsxFile([
      ['IP', 'SN', 'Customer'],
      [a, (await snOf(a)).toLowerCase(), 'Acme'],
      [b, 'WRONGSN0000000017', null],
      [c, null, null],
      ['10.250.0.1', null, null],
      ['rack 7', null, null],
    ]).toBuffer();
    await page.locator('input[type="file"]').first().setInputFiles({ name: 'rack-7.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
    await expect.poll(() => rowIps(page), { timeout: 15_000 }).toEqual([a, b, c, '10.250.0.1']);
    expect(await page.getByTestId('shelf-file').innerText()).toContain('rack-7.xlsx: 4 IPs');
    expect(await page.getByTestId('shelf-invalid').innerText()).toContain('(line 6)');
    expect(await page.getByTestId('shelf-filter-change').innerText()).toBe('Will change 2');
    expect(await page.getByTestId('shelf-filter-snMismatch').innerText()).toBe('SN differs 1');
    expect(await page.locator(`[data-row-key="${b}"]`).textContent()).toContain('SN differs: skipped');
    expect(await page.locator('[data-row-key="10.250.0.1"]').textContent()).toContain('No miner at this IP');

    await page.getByTestId('shelf-filter-unknown').click();
    await expect.poll(() => rowIps(page)).toEqual(['10.250.0.1']);
    await page.getByTestId('shelf-filter-all').click();
    await expect.poll(() => rowIps(page)).toHaveLength(4);

    const before = await offShelf();
    await applyAndConfirm(page, 'Take 2 miners off shelf');
    expect(await page.getByTestId('shelf-result').innerText()).toContain('2 miners taken off shelf');
    expect(await page.getByTestId('shelf-result').innerText()).toContain('1 row with a different SN was left alone.');
    expect(await offShelf()).toEqual([...before, a, c].sort());
    await expect.poll(() => page.getByTestId('shelf-filter-already').innerText()).toBe('Already 2');

    await page.getByTestId('shelf-include-mismatch').check();
    await applyAndConfirm(page, 'Take 1 miner off shelf');
    expect(await offShelf()).toEqual([...before, a, b, c].sort());
    await expect.poll(() => page.getByTestId('shelf-apply').innerText()).toBe('Nothing to change');

    // gone from the miner list, listed in the off-shelf records
    const list = await api.get<{ list: { ip: string }[] }>('/api/miner/list', { agentKey: FARM, pageSize: 100 });
    expect(list.list.map((m) => m.ip)).not.toContain(b);

    await page.getByTestId('shelf-action').getByText('Put back on shelf').click();
    await expect.poll(() => page.getByTestId('shelf-filter-change').innerText()).toBe('Will change 2');
    await page.getByTestId('shelf-include-mismatch').check();
    await applyAndConfirm(page, 'Put 3 miners back on shelf');
    expect(await offShelf()).toEqual(before);
    expect(errors).toEqual([]);
  });

  it('downloads the Excel template with its three columns', async () => {
    const { page } = s;
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('shelf-template').click()]);
    expect(file.suggestedFilename()).toBe('shelf-list-template.xlsx');
    const sheet = await readSheet(readFileSync((await file.path())!));
    expect(sheet[0]).toEqual(['IP', 'SN in the list', 'Customer']);
  });
});

describe('batch on/off shelf at 360 px', () => {
  it('checks and applies a txt list without scrolling sideways', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      await openPage(page);
      const ips = [minerIp(10), minerIp(11)];
      await page.locator('input[type="file"]').first().setInputFiles({ name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from(`${ips.join('\n')}\n`) });
      await expect.poll(() => rowIps(page), { timeout: 15_000 }).toEqual(ips);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      await applyAndConfirm(page, 'Take 2 miners off shelf');
      expect(await offShelf()).toEqual(expect.arrayContaining(ips));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    } finally {
      await context.close();
    }
  }, 120_000);
});
