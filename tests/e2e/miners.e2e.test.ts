/**
 * Miner monitoring end to end: a farm of 200 varied miners (three hourly cycles) uploaded through the
 * agent uplink, then on a desktop: filter to faulty miners with a counter, open one and see its charts,
 * export a selection as CSV and as Excel (both downloaded and parsed back), "select data for export"
 * without a selection, "all matching" export, column choices that survive a reload; on a 360 px phone:
 * no sideways scrolling, folded filters, search, selection and export.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerIp, minerSnapshot, uploadBatch } from '../support/miner-snapshots';
import { type ApiSession, VIEWPORTS, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'miner-farm';
const COUNT = 200;
const HOUR_MS = 3_600_000;
/** Kind 9 of the builder: S19j Pro missing chips (and a hashboard). */
const FAULTY = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 10 === 9);

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

/** The builder's reading plus states it does not make: sleeping, low power, an illegal pool, high temperature. */
function reading(i: number, takenAt: string): MinerSnapshot {
  const s = structuredClone(minerSnapshot(i, { takenAt, rateFactor: 1 + (i % 3) / 100 }));
  if (i % 50 === 1) {
    s.rt5s = 0;
    s.workMode = 'sleep';
    s.state = { ...s.state, qualified: false, sleeping: true };
  } else if (i % 50 === 2) {
    s.workMode = 'low-power';
    s.state = { ...s.state, lowPower: true };
  } else if (i % 50 === 3) {
    s.state = { ...s.state, illegalPool: true };
  } else if (i % 50 === 4) {
    for (const b of s.boards) b.tempChip = b.tempChip.map(() => 97);
    s.faultLabels = ['high-temperature'];
  }
  return s;
}

async function upload(secret: string, seq: number, takenAt: string): Promise<void> {
  const batch: SnapshotBatch = {
    agentVersion: '1.4.2',
    batchSeq: seq,
    cycleStartedAt: takenAt,
    cycleDurationMs: 9000,
    snapshots: Array.from({ length: COUNT }, (_, i) => reading(i, takenAt)),
  };
  await uploadBatch(server.url, FARM, secret, batch);
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  const { secret } = await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Miner farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false });
  const now = Date.now();
  for (const [seq, hoursAgo] of [2, 1, 0].entries()) await upload(secret, seq + 1, new Date(now - hoursAgo * HOUR_MS).toISOString());
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rows = (page: Page) => page.getByTestId('data-table-row');
const headerTitles = (page: Page) => page.locator('thead th[data-column-key]').evaluateAll((ths) => ths.map((th) => (th as HTMLElement).innerText.trim()));
const rowIps = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key') ?? ''));

async function download(page: Page, format: 'csv' | 'xlsx'): Promise<string> {
  await page.getByTestId('miner-export').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`miner-export-${format}`).click()]);
  expect(file.suggestedFilename()).toMatch(new RegExp(`^miners-${FARM}-\\d{8}-\\d{4}\\.${format}$`));
  const path = await file.path();
  if (!path) throw new Error('download has no path');
  return path;
}

function parseCsv(path: string): string[][] {
  const text = readFileSync(path, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
}

describe('miner list at 1440 px', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: Error[];

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/device/miner');
    await page.getByTestId('miner-list-page').waitFor();
    await rows(page).first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('shows the first page in IP order with counters and hashrates in units', async () => {
    await expect(page.getByTestId('miner-counter-total-value').textContent()).resolves.toBe('200');
    await expect(page.getByTestId('miner-counter-fault-missing-chip-value').textContent()).resolves.toBe(String(FAULTY.length));
    expect((await rowIps(page)).slice(0, 11)).toEqual(Array.from({ length: 11 }, (_, i) => minerIp(i)));
    await page.getByTestId('data-table-pagination').waitFor();
    const first = await rows(page).first().innerText();
    expect(first).toMatch(/\d+\.\d{2} TH\/s/);
  });

  it('counters read at 4.5:1 at least in the light scheme: every figure in its colour and every name, also on the active tint', async () => {
    const ratios = () =>
      page.getByTestId('miner-list-page').evaluate((root) => {
        // sRGB channels 0–1 and alpha of a computed colour: rgb()/rgba(), or color(srgb …) as color-mix() computes.
        const parse = (c: string): [number, number, number, number] => {
          const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)/.exec(c);
          if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3]), srgb[4] === undefined ? 1 : Number(srgb[4])];
          const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:[,/] ?([\d.]+))?\)/.exec(c);
          if (!m) throw new Error(`colour ${c}`);
          return [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255, m[4] === undefined ? 1 : Number(m[4])];
        };
        // The background under an element: its ancestors' backgrounds laid over white, outermost first.
        const backdrop = (el: Element): [number, number, number] => {
          const layers: [number, number, number, number][] = [];
          for (let e: Element | null = el; e; e = e.parentElement) layers.unshift(parse(getComputedStyle(e).backgroundColor));
          return layers.reduce<[number, number, number]>((b, [r, g, bl, a]) => [r * a + b[0] * (1 - a), g * a + b[1] * (1 - a), bl * a + b[2] * (1 - a)], [1, 1, 1]);
        };
        const lum = ([r, g, b]: number[]) => {
          const lin = (x: number) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
          return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
        };
        const ratio = (el: Element) => {
          const [a, b] = [lum(parse(getComputedStyle(el).color)), lum(backdrop(el))];
          return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
        };
        const out: Record<string, number> = {};
        for (const v of root.querySelectorAll('[data-testid^="miner-counter-"][data-testid$="-value"]')) {
          out[v.getAttribute('data-testid')!] = ratio(v);
          out[`${v.getAttribute('data-testid')!} name`] = ratio(v.previousElementSibling!);
        }
        return out;
      });
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('light');
    const low = (r: Record<string, number>) => Object.entries(r).filter(([, v]) => v < 4.5);
    const idle = await ratios();
    expect(Object.keys(idle).length).toBeGreaterThan(10);
    expect(low(idle)).toEqual([]);
    // The missing-chip counter active: its figure and name on the red tint.
    await page.getByTestId('miner-counter-fault-missing-chip').click();
    await page.waitForURL(/faultType=missing-chip/);
    expect(low(await ratios())).toEqual([]);
    await page.getByTestId('miner-counter-fault-missing-chip').click();
    await page.waitForURL((u) => !u.search.includes('faultType'));
    // The whole list shown again (the address changes at once, the rows when React has rendered it).
    await expect.poll(async () => (await rowIps(page)).slice(0, 3)).toEqual([minerIp(0), minerIp(1), minerIp(2)]);
  });

  it('filters to the faulty miners with a counter, then opens one with its charts', async () => {
    await page.getByTestId('miner-counter-fault-missing-chip').click();
    await page.waitForURL(/faultType=missing-chip/);
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual(FAULTY.map(minerIp).sort());
    expect(await page.getByTestId('data-table-pagination').count()).toBe(0);
    expect(await rows(page).filter({ hasText: 'Missing chip' }).count()).toBe(FAULTY.length);

    await rows(page).first().locator('td').nth(3).click();
    await page.waitForURL(/\/device\/miner\/detail\?ip=/);
    const ip = new URL(page.url()).searchParams.get('ip');
    expect(ip).toBe(minerIp(FAULTY[0]!));
    await page.getByTestId('miner-detail-boards').waitFor();
    expect(await page.getByTestId('miner-board-row').count()).toBe(3);
    await page.getByTestId('miner-detail-state').getByText('Missing hashboard').waitFor();
    expect(await page.getByTestId('miner-pool-row').count()).toBe(3);
    await page.getByTestId('miner-chart-hashrate').locator('canvas').waitFor();
    await page.getByTestId('miner-chart-temperature').locator('canvas').waitFor();
    const box = await page.getByTestId('miner-chart-hashrate').boundingBox();
    expect(box?.height).toBeGreaterThan(200);
    await page.getByTestId('miner-history-range').getByText('30 days').click();
    await page.getByTestId('miner-chart-hashrate').locator('canvas').waitFor();
    await page.getByTestId('miner-detail-back').click();
    await page.waitForURL(/\/device\/miner$/);
    await rows(page).first().waitFor();
  });

  it('filters by an error code the miners report, from its dropdown', async () => {
    await page.getByTestId('miner-filter-errorCode').click();
    // The farm's codes with their message (the faulty kind reports Antminer's health message with code 0).
    await page.getByRole('option', { name: '0 chain 2 not found' }).click();
    await page.waitForURL((u) => u.searchParams.get('errorCode') === '0');
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual(FAULTY.map(minerIp).sort());
    await expect.poll(() => page.getByTestId('miner-counter-total-value').textContent()).toBe(String(FAULTY.length));
    await page.getByTestId('miner-filters-reset').click();
    await page.waitForURL((u) => !u.searchParams.has('errorCode'));
    await expect.poll(() => page.getByTestId('miner-counter-total-value').textContent()).toBe('200');
    await expect.poll(async () => (await rowIps(page))[0]).toBe(minerIp(0));
  });

  it('asks for a selection before exporting', async () => {
    await page.getByTestId('miner-export').click();
    await page.getByTestId('miner-export-csv').click();
    await page.getByText('Select data for export').first().waitFor();
  });

  it('exports the selected rows as CSV and Excel with the visible columns', async () => {
    const boxes = rows(page).locator('input[type="checkbox"]');
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    await page.getByTestId('miner-selection-count').getByText('Selected: 2').waitFor();
    const headers = await headerTitles(page);
    expect(headers.slice(0, 3)).toEqual(['IP', 'SN', 'Model']);

    const csv = parseCsv(await download(page, 'csv'));
    expect(csv[0]).toEqual(headers);
    expect(csv.slice(1).map((r) => r[0])).toEqual([minerIp(0), minerIp(2)]);
    const rate = headers.indexOf('Real-time hashrate');
    expect(csv[1]?.[rate]).toMatch(/^[\d,]+\.\d{2} TH\/s$/);
    expect(csv[2]?.[headers.indexOf('Work mode')]).toBe('Low power');

    const sheet = await readSheet(await download(page, 'xlsx'));
    expect(sheet[0]).toEqual(headers);
    expect(sheet.slice(1).map((r) => r[0])).toEqual([minerIp(0), minerIp(2)]);
    expect(sheet[1]?.[rate]).toBe(csv[1]?.[rate]);
  });

  it('exports every miner matching the filter with "select all matching"', async () => {
    await page.getByTestId('miner-selection-clear').click();
    await page.getByTestId('miner-search').fill('10.0.0.1');
    await page.waitForURL(/keyword=10\.0\.0\.1/);
    const expected = Array.from({ length: COUNT }, (_, i) => minerIp(i)).filter((ip) => ip.startsWith('10.0.0.1'));
    // The table renders a window of its 50 rows; the counter and the pagination give the total.
    await expect.poll(() => page.getByTestId('miner-counter-total-value').textContent()).toBe(String(expected.length));
    await page.getByTestId('data-table-pagination').getByText(`${expected.length}`, { exact: false }).first().waitFor();
    await page.getByTestId('miner-select-all-matching').click();
    await page.getByTestId('miner-selection-count').getByText(`Selected: ${expected.length}`).waitFor();
    const csv = parseCsv(await download(page, 'csv'));
    expect(csv.slice(1).map((r) => r[0]).sort()).toEqual(expected.sort());
    await page.getByTestId('miner-filters-reset').click();
    await page.waitForURL(/\/device\/miner$/);
  });

  it('keeps column choices across a reload', async () => {
    await page.getByTestId('column-picker-button').click();
    await page.getByTestId('column-picker-item-sn').getByRole('checkbox').uncheck();
    await page.getByTestId('column-picker-item-mac').getByRole('checkbox').check();
    await page.keyboard.press('Escape');
    await expect.poll(() => headerTitles(page)).toContain('MAC');
    await page.reload();
    await rows(page).first().waitFor();
    const after = await headerTitles(page);
    expect(after).not.toContain('SN');
    expect(after).toContain('MAC');
    expect(errors).toEqual([]);
  });
});

describe('miner list at 360 px', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: Error[];
  const width = VIEWPORTS.phone.width;

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'phone' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/device/miner');
    await rows(page).first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it('does not scroll sideways; filters fold behind a button and still filter', async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await page.getByTestId('miner-filter-status').isVisible()).toBe(false);
    await page.getByTestId('miner-filters-toggle').click();
    await page.getByTestId('miner-filter-status').click();
    await page.getByRole('option', { name: 'Sleeping' }).click();
    await page.waitForURL(/status=sleeping/);
    const sleeping = Array.from({ length: COUNT }, (_, i) => i).filter((i) => i % 50 === 1).map(minerIp);
    await expect.poll(async () => (await rowIps(page)).sort()).toEqual(sleeping.sort());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // "Filters (1)" and "Clear filters" beside it leave the search room to read an IP or a 17-character SN (115 px it was).
    await page.getByTestId('miner-filters-reset').waitFor();
    expect((await page.getByTestId('miner-search').boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(160);
  });

  it('searches, selects and exports on the phone', async () => {
    await page.getByTestId('miner-filters-reset').click();
    const sn = minerSnapshot(57, { takenAt: '' }).sn;
    await page.getByTestId('miner-search').fill(sn);
    // the address first (the search alone, the status filter gone), then the rows
    await page.waitForURL((u) => u.searchParams.get('keyword') === sn && !u.searchParams.has('status'), { timeout: 10_000 });
    await expect.poll(() => rowIps(page)).toEqual([minerIp(57)]);
    await rows(page).first().locator('input[type="checkbox"]').check();
    const csv = parseCsv(await download(page, 'csv'));
    expect(csv.slice(1).map((r) => r[0])).toEqual([minerIp(57)]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(errors).toEqual([]);
  });

  it('has finger-size targets (≥ 32 px) in the shared table, its column picker and error state, and the burger', async () => {
    await page.goto('/device/miner');
    await rows(page).first().waitFor();
    const min = async (locator: ReturnType<Page['locator']>, what: string) => {
      const box = await locator.boundingBox();
      expect(Math.min(box?.width ?? 0, box?.height ?? 0), what).toBeGreaterThanOrEqual(32);
    };
    await min(page.getByTestId('sidebar-burger'), 'burger');
    const sortButtons = await page.locator('thead th[data-column-key] button').all();
    expect(sortButtons.length).toBeGreaterThan(3);
    for (const button of sortButtons) await min(button, `sort ${await button.innerText()}`);
    // A finger's grip to resize a column: 16 px at the header's edge (9 px with a mouse).
    const grip = page.locator('[data-testid^="data-table-resizer-"]').first();
    expect((await grip.boundingBox())!.width, 'resize grip').toBeGreaterThanOrEqual(16);
    await min(page.getByTestId('data-table-check-all-cell'), 'select-all cell');
    for (const control of await page.getByTestId('data-table-pagination').locator('button:visible, select').all()) await min(control, 'pagination');
    // Rows stay 40 px; the whole checkbox cell is the target: a tap in its corner (off the 16 px box) ticks the row
    // and does not open it, a second one clears it.
    const row = rows(page).first();
    const key = await row.getAttribute('data-row-key');
    const keyed = page.locator(`[data-testid="data-table-row"][data-row-key="${key}"]`);
    expect((await keyed.boundingBox())!.height).toBeLessThanOrEqual(41);
    const url = page.url();
    for (const checked of [true, false]) {
      await keyed.scrollIntoViewIfNeeded();
      const cell = keyed.getByTestId('data-table-check-cell');
      await min(cell, 'row checkbox cell');
      const box = (await cell.boundingBox())!;
      await page.touchscreen.tap(box.x + 3, box.y + box.height - 3);
      await expect.poll(() => keyed.locator('input[type="checkbox"]').isChecked()).toBe(checked);
      expect(page.url()).toBe(url);
    }
    // The column picker's reset button: finger-size and whole inside the popover, also in Russian ("Сбросить" was cut).
    for (const locale of ['en-US', 'ru']) {
      await page.evaluate((l) => localStorage.setItem('hf.locale', l), locale);
      await page.reload();
      await rows(page).first().waitFor();
      await page.getByTestId('column-picker-button').click();
      const reset = page.getByTestId('column-picker-reset');
      await min(reset, `reset ${locale}`);
      const fit = await reset.evaluate((element) => {
        const own = element.getBoundingClientRect();
        const popover = element.closest('[data-testid="column-picker"]')!.getBoundingClientRect();
        const label = element.querySelector('.mantine-Button-label')!;
        return { inside: own.left >= popover.left && own.right <= popover.right, whole: label.scrollWidth <= label.clientWidth };
      });
      expect(fit).toEqual({ inside: true, whole: true });
      for (const arrow of await page.getByTestId('column-picker').getByRole('button', { name: /Move|Переместить/ }).all()) await min(arrow, 'picker arrow');
      // A column's whole line toggles it: its label is as tall as the arrows beside it (it was the 20 px of its text).
      const snLabel = page.getByTestId('column-picker-item-sn').locator('label').last();
      expect((await snLabel.boundingBox())!.height, 'picker label').toBeGreaterThanOrEqual(32);
      const snBox = page.getByTestId('column-picker-item-sn').getByRole('checkbox');
      const shown = await snBox.isChecked();
      const labelBox = (await snLabel.boundingBox())!;
      await page.touchscreen.tap(labelBox.x + labelBox.width - 4, labelBox.y + labelBox.height - 3);
      await expect.poll(() => snBox.isChecked()).toBe(!shown);
      await page.touchscreen.tap(labelBox.x + labelBox.width - 4, labelBox.y + labelBox.height - 3);
      await expect.poll(() => snBox.isChecked()).toBe(shown);
      await page.keyboard.press('Escape');
    }
    await page.evaluate(() => localStorage.setItem('hf.locale', 'en-US'));
    // The table's error state: its retry button.
    await page.route('**/api/agent/pagelist**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":500,"msg":"down","data":null}' }));
    try {
      await page.goto('/agents');
      await min(page.getByTestId('data-table-retry'), 'retry');
    } finally {
      await page.unroute('**/api/agent/pagelist**');
    }
    expect(errors).toEqual([]);
  });

  it('shows the detail page and the hashrate overview without sideways scrolling', async () => {
    await page.goto(`/device/miner/detail?ip=${minerIp(9)}`);
    await page.getByTestId('miner-chart-hashrate').locator('canvas').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.goto('/device/hash');
    await page.getByTestId('farm-chart-hashrate').locator('canvas').waitFor();
    await expect(page.getByTestId('overview-online-rate').innerText()).resolves.toContain('/200');
    // A phone never hovers: the legend shows the latest values, not dashes.
    await expect.poll(() => page.getByTestId('farm-chart-hashrate').locator('.u-legend').innerText()).toMatch(/Real:?\s*[\d.,]+ [KMGTPE]?H\/s/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.goto('/statistics/deviceType');
    await page.getByTestId('model-stats-page').getByText('S19j Pro').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
});
