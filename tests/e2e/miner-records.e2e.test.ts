/**
 * Miner records end to end: a farm of 30 miners uploaded through the agent uplink. On a desktop: miners taken
 * off shelf by the batch operation appear on /device/miners with who and when, the search narrows them, a
 * selection is exported as CSV and put back on shelf; on a miner's detail page the SN is refused at 16
 * characters with "SN must be 17 characters", saved at 17 and shown (also after the agent reports again), the
 * operation log lists the change, a history log is requested, the agent's upload (played here over the agent
 * uplink with the farm's secret; the agent itself is tested against the simulator in tests/agent) shows up, and
 * the fault analysis of a miner short of chips names its boards. At 360 px the off-shelf page does not scroll sideways.
 */
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import { gzipBatch, minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type ApiSession, VIEWPORTS, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, tableRowKeys, tableRows, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'records-farm';
const COUNT = 30;
const OFF = [3, 4, 5, 17].map(minerIp);
const NEW_SN = 'HFE2ESN0000000017';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let secret = '';
let seq = 0;

const agentHeaders = () => ({ authorization: agentAuthorization(FARM, secret), 'content-type': 'application/json' });

async function upload(): Promise<void> {
  seq += 1;
  const takenAt = new Date().toISOString();
  const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 9000, snapshots: Array.from({ length: COUNT }, (_, i) => minerSnapshot(i, { takenAt })) };
  const res = await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/snapshots`, { method: 'POST', headers: { ...agentHeaders(), 'content-encoding': 'gzip' }, body: new Uint8Array(gzipBatch(batch)) });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  secret = (await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Records farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false })).secret;
  await upload();
  await api.post('/api/minerv2/batchOffline', { agentKey: FARM, ips: OFF.join(',') });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const rows = tableRows;
const rowIps = tableRowKeys;

describe('off-shelf records at 1440 px', () => {
  let context: BrowserContext;
  let page: Page;
  let errors: Error[];

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    errors = trackPageErrors(page);
    await loginUi(page);
    await selectFarm(page, FARM);
    await page.goto('/device/miners');
    await page.getByTestId('off-shelf-page').waitFor();
  }, 120_000);
  afterAll(async () => context?.close());

  it('lists the miners taken off shelf with who and when, and searches them', async () => {
    await expect.poll(async () => (await rowIps(page)).sort(), { timeout: 15_000 }).toEqual([...OFF].sort());
    // How many: past 13 rows the table scrolls inside itself and pages start only above 50.
    expect(await page.getByTestId('off-shelf-total').innerText()).toBe(`${OFF.length} miners off shelf`);
    const first = await rows(page).first().innerText();
    expect(first).toContain('admin');
    expect(first).toContain('Off shelf');
    await page.getByTestId('off-shelf-search').fill(OFF[3]!);
    await page.getByTestId('off-shelf-search').press('Enter');
    await expect.poll(() => rowIps(page), { timeout: 15_000 }).toEqual([OFF[3]]);
    expect(await page.getByTestId('off-shelf-total').innerText()).toBe('1 matching miner');
    await page.getByTestId('off-shelf-search').fill('');
    await page.getByTestId('off-shelf-search').press('Enter');
    await expect.poll(async () => (await rowIps(page)).length, { timeout: 15_000 }).toBe(OFF.length);
  });

  it('exports a selection as CSV and puts it back on shelf', async () => {
    await page.getByTestId('off-shelf-export').click();
    await page.getByTestId('off-shelf-export-csv').click();
    await page.getByText('Select data for export').waitFor();

    for (const ip of OFF.slice(0, 2)) await page.locator(`[data-row-key="${ip}"] input[type="checkbox"]`).check();
    await page.getByTestId('off-shelf-export').click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('off-shelf-export-csv').click()]);
    const text = readFileSync((await file.path())!, 'utf8');
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]?.slice(0, 3)).toEqual(['IP', 'SN', 'Model']);
    expect(parsed.slice(1).map((r) => r[0]).sort()).toEqual(OFF.slice(0, 2).sort());

    await page.getByTestId('off-shelf-back').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Back on shelf' }).click();
    await expect.poll(async () => (await rowIps(page)).sort(), { timeout: 15_000 }).toEqual(OFF.slice(2).sort());
    expect(errors).toEqual([]);
  });
});

describe('miner detail records at 1440 px', () => {
  let context: BrowserContext;
  let page: Page;
  const ip = minerIp(7);

  beforeAll(async () => {
    context = await newContext(browser, server.url, { viewport: 'desktop' });
    page = await context.newPage();
    await loginUi(page);
    await selectFarm(page, FARM);
    await page.goto(`/device/miner/detail?ip=${ip}`);
    await page.getByTestId('miner-detail-identity').waitFor();
  }, 120_000);
  afterAll(async () => context?.close());

  it('refuses a 16-character SN, saves 17 and keeps it over the next reading', async () => {
    const reported = await page.getByTestId('miner-detail-sn').textContent();
    await page.getByTestId('miner-sn-edit').click();
    await page.getByTestId('miner-sn-input').fill(NEW_SN.slice(1));
    await page.getByTestId('miner-sn-save').click();
    await page.getByText('SN must be 17 characters').waitFor();
    await page.getByTestId('miner-sn-input').fill(NEW_SN.toLowerCase());
    await page.getByTestId('miner-sn-save').click();
    await expect.poll(() => page.getByTestId('miner-detail-sn').textContent(), { timeout: 15_000 }).toBe(NEW_SN);
    await upload();
    await page.reload();
    await expect.poll(() => page.getByTestId('miner-detail-sn').textContent(), { timeout: 15_000 }).toBe(NEW_SN);
    const log = page.getByTestId('miner-op-log');
    await log.getByText('SN updated').waitFor();
    await log.getByText(`${reported} → ${NEW_SN}`).waitFor();
  });

  it('requests a history log and shows what the agent uploads', async () => {
    await page.getByTestId('miner-history-log-create').click();
    await expect.poll(() => page.getByTestId('miner-history-log-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('pending');
    // The farm's agent: picks the task, reads the log, uploads it, reports the result.
    const tasks = (await (await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/tasks`, { headers: agentHeaders() })).json()) as { data: { id: string; op: string }[] };
    const task = tasks.data.find((t) => t.op === 'history-log');
    expect(task).toBeDefined();
    const text = 'Booting Linux on physical CPU 0x0\nChain 1 only find 120 asic\n';
    const up = await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/history-logs/${task!.id}`, { method: 'POST', headers: agentHeaders(), body: JSON.stringify({ ip, ok: true, content: text, source: '/cgi-bin/get_kernel_log.cgi' }) });
    expect(up.status).toBe(200);
    await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/tasks/${task!.id}/results`, { method: 'POST', headers: agentHeaders(), body: JSON.stringify({ results: [{ ip, ok: true }], done: true }) });
    await expect.poll(() => page.getByTestId('miner-history-log-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    expect(await page.getByTestId('miner-history-log-content').textContent()).toContain('Chain 1 only find 120 asic');
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('miner-history-log-download').click()]);
    expect(readFileSync((await file.path())!, 'utf8')).toBe(text);
    await page.getByTestId('miner-op-log').getByText('History log requested').waitFor();
  });

  it('analyses a miner short of chips: the missing chips and the failed hashboard first, with what to do', async () => {
    await page.goto(`/device/miner/detail?ip=${minerIp(9)}`);
    await page.getByTestId('miner-detail-identity').waitFor();
    await page.getByTestId('miner-analysis-run').click();
    const findings = page.getByTestId('miner-analysis-finding');
    await expect.poll(() => findings.count(), { timeout: 15_000 }).toBeGreaterThan(2);
    expect(await findings.evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-code')))).toEqual(['missingChips', 'missingBoard']);
    const first = await findings.first().innerText();
    expect(first).toContain('Hashboard 2 finds 64 of 126 chips.');
    expect(first).toContain('repair shop');
    // meanwhile the agent is asked for the miner's own log; when it arrives its error lines join the findings
    expect(await page.getByTestId('miner-analysis-log').getAttribute('data-log')).toBe('waiting');
    const ip = minerIp(9);
    const tasks = (await (await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/tasks`, { headers: agentHeaders() })).json()) as { data: { id: string; op: string; targets: { ip: string }[] }[] };
    const task = tasks.data.find((t) => t.op === 'history-log' && t.targets[0]?.ip === ip);
    expect(task).toBeDefined();
    const text = '2026-11-28 08:01:00 ERROR_FAN_LOST: fan 1 lost, please check fan\n';
    await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/history-logs/${task!.id}`, { method: 'POST', headers: agentHeaders(), body: JSON.stringify({ ip, ok: true, content: text, source: '/cgi-bin/get_kernel_log.cgi' }) });
    await fetch(`${server.url}${AGENT_UPLINK_PREFIX}/tasks/${task!.id}/results`, { method: 'POST', headers: agentHeaders(), body: JSON.stringify({ results: [{ ip, ok: true }], done: true }) });
    await expect.poll(() => page.getByTestId('miner-analysis-log').getAttribute('data-log'), { timeout: 15_000 }).toBe('read');
    expect(await page.getByTestId('miner-analysis-result').innerText()).toContain("The miner's log reports a lost fan (1×).");
  });
});

describe('temperature probes (/miner/probes, no layout)', () => {
  it('shows every online miner on the shelves hottest first, in the chosen unit, on desktop and at 360 px', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const context = await newContext(browser, server.url, { viewport });
      try {
        const page = await context.newPage();
        const errors = trackPageErrors(page);
        await loginUi(page);
        await selectFarm(page, FARM);
        await page.goto('/miner/probes');
        await page.getByTestId('miner-probes-page').waitFor();
        expect(await page.getByTestId('app-shell').count()).toBe(0);
        // The miners on the shelves: those still taken off shelf (above) are not probed.
        const off = new Set((await api.get<{ list: { ip: string }[] }>('/api/miner/offShelfList', { agentKey: FARM, pageSize: 100 })).list.map((r) => r.ip));
        expect(off.size).toBeGreaterThan(0);
        const online = Array.from({ length: COUNT }, (_, i) => minerSnapshot(i, { takenAt: new Date().toISOString() })).filter((m) => m.online && !off.has(m.ip)).length;
        await expect.poll(() => page.getByTestId('probe-tile').count(), { timeout: 15_000 }).toBe(online);
        const celsius = await page.getByTestId('probe-temp').allTextContents();
        const values = celsius.map((v) => Number.parseFloat(v));
        expect(values).toEqual([...values].sort((a, b) => b - a));
        expect(celsius[0]).toMatch(/°C$/);
        await page.getByTestId('probes-unit').getByText('°F').click();
        await expect.poll(async () => (await page.getByTestId('probe-temp').first().textContent()) ?? '', { timeout: 5_000 }).toMatch(/°F$/);
        const f = Number.parseFloat((await page.getByTestId('probe-temp').first().textContent()) ?? '');
        expect(Math.abs(f - (values[0]! * 1.8 + 32))).toBeLessThanOrEqual(1.5);
        if (viewport === 'phone') {
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
          // The page's only way back is a thumb-sized target, not the bare 18 px arrow it was.
          const back = await page.getByTestId('probes-back').boundingBox();
          expect(Math.min(back?.width ?? 0, back?.height ?? 0)).toBeGreaterThanOrEqual(32);
          // So is the unit switch (23 px tall in its compact desktop size).
          expect((await page.getByTestId('probes-unit').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(32);
        }
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 180_000);
});

describe('off-shelf records at 360 px', () => {
  it('fits the phone width', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      await loginUi(page);
      await selectFarm(page, FARM);
      await page.goto('/device/miners');
      await page.getByTestId('off-shelf-page').waitFor();
      await rows(page).first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      // Export and back on shelf: finger-size buttons (an xs button is 30 px tall).
      for (const id of ['off-shelf-export', 'off-shelf-back']) expect((await page.getByTestId(id).boundingBox())!.height).toBeGreaterThanOrEqual(32);
      // The IP opens the miner, styled as the console's links are (it was the browser's default underlined blue).
      const link = page.getByTestId('off-shelf-ip-link').first();
      expect(await link.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe('none');
      // … and is a finger's tap (its line alone was 16 px tall), as is the search box (30 px before).
      expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(32);
      expect((await page.getByTestId('off-shelf-search').boundingBox())!.height).toBeGreaterThanOrEqual(32);
    } finally {
      await context.close();
    }
  }, 120_000);
});
