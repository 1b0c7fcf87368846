/**
 * Issue 4's acceptance journeys on the real chain: server + simulated fleet (30 miners on 127.53.0.0/24: stock
 * Antminer S19/S21/T21, Whatsminer, VNish, LuxOS) + the real agent, in Chromium at 1440 px. Every row comes from the simulator
 * through the agent; every operation is run by the agent on the simulated miner:
 * reboot 10 miners and watch them go offline and come back; set pools with an e-mailed verification code;
 * an S19 refused for hashrate adjust with its reason; an IP list uploaded as txt and as Excel as the target;
 * a selection exported as CSV and Excel and parsed back; a customer and an accident mark chosen from the farm's lists.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import type { SimMiner } from '@sim/fleet';
import { type E2EFarm, startE2EFarm } from '../support/e2e-farm';
import { launchBrowser, loginUi, newContext, trackPageErrors } from '../support/e2e-browser';

const FARM = 'journey-farm';
const MINERS = 30;

let farm: E2EFarm;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: Error[];
const used = new Set<string>();

/** Miners of the fleet in IP order that no earlier journey touched. */
function take(n: number, pred: (m: SimMiner) => boolean = () => true): SimMiner[] {
  const byIp = [...farm.fleet.miners].sort((a, b) => Number(a.ip.split('.')[3]) - Number(b.ip.split('.')[3]));
  const out = byIp.filter((m) => !used.has(m.ip) && pred(m)).slice(0, n);
  if (out.length < n) throw new Error(`fleet has only ${out.length} miners for this journey`);
  for (const m of out) used.add(m.ip);
  return out;
}

const row = (ip: string) => page.locator(`[data-testid="data-table-row"][data-row-key="${ip}"]`);

/** The table renders a window of its rows: scroll its viewport until the row of `ip` is rendered. */
async function reveal(ip: string): Promise<void> {
  if ((await row(ip).count()) > 0) return;
  const vp = page.getByTestId('data-table-viewport');
  await vp.evaluate((el) => el.scrollTo({ top: 0 }));
  for (let i = 0; i < 40 && (await row(ip).count()) === 0; i++) {
    await vp.evaluate((el) => el.scrollBy({ top: el.clientHeight / 2 }));
    await page.waitForTimeout(50);
  }
}

/** A journey that failed half-way may leave its dialog open: close it so the next one starts from the list. */
async function backToList(): Promise<void> {
  if ((await page.getByTestId('batch-dialog-run').count()) + (await page.getByTestId('batch-dialog-close').count()) === 0) return;
  await page.keyboard.press('Escape');
  await page.getByTestId('batch-dialog-run').waitFor({ state: 'detached' });
  await page.getByTestId('batch-dialog-close').waitFor({ state: 'detached' });
}

async function select(ips: string[]): Promise<void> {
  await backToList();
  await page.getByTestId('miner-selection-clear').click({ timeout: 1000 }).catch(() => undefined);
  for (const ip of ips) {
    await reveal(ip);
    await row(ip).locator('input[type="checkbox"]').check();
  }
  await page.getByTestId('miner-selection-count').getByText(`Selected: ${ips.length}`).waitFor();
}

async function openOp(op: string): Promise<void> {
  await page.getByTestId('batch-menu').click();
  await page.getByTestId(`batch-op-${op}`).click();
  await page.getByTestId('batch-dialog-run').waitFor();
}

async function runAndFinish(total: number): Promise<void> {
  await page.getByTestId('batch-dialog-run').click();
  await page.getByTestId('batch-progress').waitFor();
  await expect.poll(() => page.getByTestId('batch-progress-count').innerText(), { timeout: 30_000 }).toBe(`${total} / ${total} done`);
  expect(await page.getByTestId('batch-progress-status').innerText()).toMatch(/finished/i);
}

async function closeDialog(): Promise<void> {
  await page.getByTestId('batch-dialog-close').click();
  await page.getByTestId('batch-dialog-close').waitFor({ state: 'detached' });
}

/** Clicks the list's refresh until every row shows the wanted status badge. */
async function waitForStatus(ips: string[], status: 'online' | 'offline', timeoutMs: number): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.getByTestId('miner-refresh').click();
        await page.waitForTimeout(300);
        let n = 0;
        for (const ip of ips) {
          await reveal(ip);
          if ((await row(ip).locator(`[data-status="${status}"]`).count()) > 0) n++;
        }
        return n;
      },
      { timeout: timeoutMs, interval: 800 },
    )
    .toBe(ips.length);
}

async function download(format: 'csv' | 'xlsx'): Promise<string> {
  await page.getByTestId('miner-export').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`miner-export-${format}`).click()]);
  const path = await file.path();
  if (!path) throw new Error('download has no path');
  return path;
}

beforeAll(async () => {
  farm = await startE2EFarm({
    agentKey: FARM,
    cidr: '127.53.0.0/24',
    miners: MINERS,
    seed: 54,
    mix: { 'antminer-stock': 0.68, whatsminer: 0.17, braiins: 0.05, vnish: 0.05, luxos: 0.05 },
    rebootDarkMs: 9000,
    cycleMs: 2000,
  });
  await farm.waitForMiners(MINERS, { online: true });
  browser = await launchBrowser();
  context = await newContext(browser, farm.server.url, { viewport: 'desktop' });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  errors = trackPageErrors(page);
  await loginUi(page);
  await page.goto('/device/miner');
  await row(farm.fleet.miners[0]!.ip).waitFor({ timeout: 20_000 });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await farm?.close();
});

describe('miner journeys on the real chain', () => {
  it('reboots 10 selected miners: progress to done, they go offline and come back online', async () => {
    const ms = take(10);
    const ips = ms.map((m) => m.ip);
    const uptimeBefore = ms.map((m) => m.elapsed);
    await select(ips);
    await openOp('batchReboot');
    expect(await page.getByTestId('batch-target').innerText()).toContain('10');
    await runAndFinish(10);
    expect((await page.getByTestId('batch-progress-successes').innerText()).split(/[\s,]+/).filter(Boolean).sort()).toEqual([...ips].sort());
    expect(ms.every((m) => m.state === 'rebooting')).toBe(true);
    await closeDialog();
    await waitForStatus(ips, 'offline', 8000);
    await waitForStatus(ips, 'online', 25_000);
    ms.forEach((m, i) => expect(m.elapsed).toBeLessThan(uptimeBefore[i]!));
  }, 60_000);

  it('sets pools on a selection with the verification code mailed to the bound address', async () => {
    const ms = take(3, (m) => m.family === 'antminer-stock' || m.family === 'whatsminer' || m.family === 'vnish');
    await select(ms.map((m) => m.ip));
    await openOp('batchSetPool');
    await page.getByTestId('batch-field-pool1Url').fill('stratum+tcp://journey.pool.example:3333');
    await page.getByTestId('batch-field-pool1User').fill('journey7');
    const since = farm.mails.length;
    await page.getByTestId('batch-code-send').click();
    await page.getByTestId('batch-code-sent').waitFor();
    expect(await page.getByTestId('batch-code-sent').innerText()).toContain('@hashfield.test');
    await page.getByTestId('batch-code-input').fill(await farm.waitForCode(since));
    await runAndFinish(3);
    for (const m of ms) expect(m.pools.filter((p) => p.url).map((p) => [p.url, p.user]), m.family).toEqual([['stratum+tcp://journey.pool.example:3333', 'journey7']]);
    await closeDialog();
  }, 40_000);

  it('refuses hashrate adjust on an S19 with the stated reason and runs it on a new S21/T21', async () => {
    const [s19] = take(1, (m) => m.family === 'antminer-stock' && /^antminer-s19/.test(m.model.id));
    const [s21] = take(1, (m) => (m.model.id === 'antminer-s21' || m.model.id === 'antminer-t21') && m.firmware.date >= '20240520');
    await select([s19!.ip, s21!.ip]);
    await openOp('batchAdjustHashRate');
    await page.getByTestId('batch-field-percent').fill('80');
    await runAndFinish(2);
    expect(await page.getByTestId('batch-summary').innerText()).toMatch(/1\b.*·.*1\b/);
    const failures = await page.getByTestId('batch-progress-failures').innerText();
    expect(failures).toContain(s19!.ip);
    expect(failures).toContain('Model not supported');
    expect(failures).not.toContain(s21!.ip);
    expect(await page.getByTestId('batch-progress-successes').innerText()).toContain(s21!.ip);
    expect(s21!.freqLevel).toBe(80);
    expect(s19!.freqLevel).toBe(100);
    await closeDialog();
  }, 40_000);

  it("changes the customer and marks an accident from the farm's lists; the list and the detail show both", async () => {
    await farm.api.post('/api/customer/save', {
      agentKey: FARM,
      name: 'Journey Hosting',
      contract: 'Li Wei',
      email: 'ops@journey.example',
      mobile: '',
      areaCode: '',
      electricUnit: 'USD',
      electricPrice: '0.05',
      hostingResult: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 2 }]),
    });
    const ips = take(2).map((m) => m.ip);
    await select(ips);
    await openOp('batchCustomer');
    expect(await page.getByTestId('batch-target').innerText()).toContain('2');
    await page.getByTestId('batch-field-customer').click();
    await page.getByRole('option', { name: 'Journey Hosting' }).click();
    await runAndFinish(2);
    await closeDialog();
    await openOp('batchAccident');
    await page.getByTestId('batch-field-accident').click();
    await page.getByRole('option', { name: 'Power failure' }).click();
    await page.getByTestId('batch-field-note').fill('PDU 4 tripped');
    await runAndFinish(2);
    await closeDialog();
    // The customer column is shown by default; the list reads the marks again after a records-only op.
    for (const ip of ips) await expect.poll(() => row(ip).innerText()).toContain('Journey Hosting');
    await page.goto(`/device/miner/detail?ip=${encodeURIComponent(ips[0]!)}`);
    expect(await page.getByTestId('miner-detail-customer').innerText()).toBe('Journey Hosting');
    expect(await page.getByTestId('miner-detail-accident').innerText()).toBe('Power failure — PDU 4 tripped');
    await page.goto('/device/miner');
    await row(ips[0]!).waitFor();
  }, 40_000);

  it('uses an uploaded IP list (txt, then Excel) as the target of an operation; reads a legacy .xls', async () => {
    await backToList();
    await page.getByTestId('miner-selection-clear').click({ timeout: 1000 }).catch(() => undefined);
    const fromTxt = take(3);
    const fromXlsx = take(2);
    const input = page.locator('input[type="file"]').first();
    await input.setInputFiles({ name: 'rack-7.txt', mimeType: 'text/plain', buffer: Buffer.from(`${fromTxt.map((m) => m.ip).join('\n')}\n`) });
    await page.getByTestId('batch-uploaded').waitFor();
    expect(await page.getByTestId('batch-uploaded').textContent()).toContain('rack-7.txt');
    await openOp('batchBlink');
    expect(await page.getByTestId('batch-target').innerText()).toContain('rack-7.txt');
    await runAndFinish(3);
    expect(fromTxt.map((m) => m.blink)).toEqual([true, true, true]);
    await closeDialog();

    const xlsx = await writeXlsxFile([['IP', 'Rack'], ...fromXlsx.map((m) => [m.ip, 'R8'])]).toBuffer();
    await input.setInputFiles({ name: 'rack-8.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
    await expect.poll(() => page.getByTestId('batch-uploaded').textContent()).toContain('rack-8.xlsx');
    await openOp('batchBlink');
    await runAndFinish(2);
    expect(fromXlsx.map((m) => m.blink)).toEqual([true, true]);
    expect(fromTxt.map((m) => m.blink)).toEqual([true, true, true]);
    await closeDialog();

    // A legacy .xls (Gnumeric's, tests/fixtures/ip-lists): read, its addresses are not on this farm.
    await input.setInputFiles({ name: 'old-rack.xls', mimeType: 'application/vnd.ms-excel', buffer: readFileSync(new URL('../fixtures/ip-lists/gnumeric.xls', import.meta.url)) });
    await expect.poll(() => page.getByTestId('batch-uploaded').textContent()).toBe('IP list old-rack.xls: 3 IPs, 0 miners');
  }, 40_000);

  it('exports a selection as CSV and Excel with what the miners report', async () => {
    // a read-only journey: one miner of each family the fleet has, touched before or not
    const families = [...new Set(farm.fleet.miners.map((m) => m.family))];
    expect(families).toEqual(expect.arrayContaining(['antminer-stock', 'whatsminer', 'luxos']));
    const ms = families.map((f) => farm.fleet.miners.find((m) => m.family === f)!);
    const ips = ms.map((m) => m.ip);
    await select(ips);
    const csvText = readFileSync(await download('csv'), 'utf8');
    expect(csvText.charCodeAt(0)).toBe(0xfeff);
    const csv = Papa.parse<string[]>(csvText.slice(1), { skipEmptyLines: true }).data;
    const headers = csv[0]!;
    const ipCol = headers.indexOf('IP');
    const modelCol = headers.indexOf('Model');
    expect(ipCol).toBeGreaterThanOrEqual(0);
    expect(modelCol).toBeGreaterThanOrEqual(0);
    const byIp = new Map(csv.slice(1).map((r) => [r[ipCol]!, r]));
    expect([...byIp.keys()].sort()).toEqual([...ips].sort());
    for (const m of ms) expect(byIp.get(m.ip)?.[modelCol], m.ip).toBe(m.model.model);

    const sheet = await readSheet(await download('xlsx'));
    expect(sheet[0]).toEqual(headers);
    const sheetByIp = new Map(sheet.slice(1).map((r) => [String(r[ipCol]), r.map((c) => (c === null ? '' : String(c)))]));
    expect([...sheetByIp.keys()].sort()).toEqual([...ips].sort());
    for (const ip of ips) expect(sheetByIp.get(ip)?.[modelCol]).toBe(byIp.get(ip)?.[modelCol]);
    expect(errors).toEqual([]);
  }, 40_000);
});
