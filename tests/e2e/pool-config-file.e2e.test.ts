/**
 * The pool configuration file end to end, on a farm of 20 miners uploaded through the agent uplink: the file is
 * downloaded from the miner list's batch bar and parsed, edited here (two miners to pool A, one to pool B, a bad
 * row), uploaded; the dialog shows the check (3 to change, the invalid row with its line and message); the code is
 * mailed (a local SMTP sink) and entered; applying lists the two queued set-pools batches, which the server holds.
 * At 360 px a CSV file is checked in the dialog without the page scrolling sideways.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { minerIp } from '../support/miner-snapshots';
import { type ApiSession, VIEWPORTS, createFarmWithMiners, launchBrowser, loginUi, newContext, selectFarm, setupAdmin, suitePage } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

const FARM = 'pool-file-farm';
const COUNT = 20;
const POOL_A = 'stratum+tcp://cust-a.pool.example:3333';
const POOL_B = 'stratum+tcp://cust-b.pool.example:443';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let smtp: SmtpSink;
const mails: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink(mails);
  server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Hashfield <codes@hashfield.test>' } });
  api = await setupAdmin(server.url);
  await api.post('/api/userv2/bindEmail', { email: 'ops@hashfield.test' });
  await createFarmWithMiners(api, { agentKey: FARM, agentName: 'Pool file farm' }, COUNT, new Date().toISOString());
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (smtp) await smtp.close();
});

async function waitForCode(since: number): Promise<string> {
  for (let i = 0; i < 75; i += 1) {
    const body = mails
      .slice(since)
      .join('\n')
      .replace(/=\r?\n/g, '');
    const m = /\b(\d{6})\b/.exec(body.split(/\r?\n\r?\n/).slice(1).join('\n'));
    if (m?.[1]) return m[1];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no verification code mailed');
}

async function openPage(page: Page): Promise<void> {
  await loginUi(page);
  await selectFarm(page, FARM);
  await page.goto('/device/miner');
  await page.getByTestId('data-table-row').first().waitFor();
}

describe('pool configuration file at 1440 px', () => {
  const s = suitePage(() => browser, () => server.url, openPage);

  it('downloads the file, uploads an edited one, checks it, applies it with the code and lists the batches', async () => {
    const { page, errors } = s;
    await page.getByTestId('pool-config-open').click();
    await page.getByTestId('pool-config-download').waitFor();

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pool-config-download').click()]);
    expect(file.suggestedFilename()).toMatch(/^pool-config-pool-file-farm-\d{8}-\d{4}\.xlsx$/);
    const sheet = (await readSheet(readFileSync((await file.path())!))) as unknown[][];
    expect(sheet[0]).toEqual(['IP', 'SN', 'Model', 'Pool 1 URL', 'Pool 1 worker', 'Pool 2 URL', 'Pool 2 worker', 'Pool 3 URL', 'Pool 3 worker']);
    expect(sheet).toHaveLength(COUNT + 1);
    expect(sheet[1]![0]).toBe(minerIp(0));

    // Edit: miners 0 and 1 to pool A, miner 2 to pool B, a bad URL on miner 3, the rest unchanged.
    const rows = sheet.map((r) => r.map((v) => (v === null || v === undefined ? null : String(v))));
    rows[1]!.splice(3, 6, POOL_A, 'custa.w0', null, null, null, null);
    rows[2]!.splice(3, 6, POOL_A, 'custa.w0', null, null, null, null);
    rows[3]!.splice(3, 6, POOL_B, 'custb.w2', null, null, null, null);
    rows[4]!.splice(3, 2, 'pool.example:3333', 'w');
    const edited = await writeXlsxFile(rows).toBuffer();
    await page
      .getByTestId('pool-config-dialog')
      .locator('input[type="file"]')
      .setInputFiles({ name: 'edited.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: edited });

    await page.getByTestId('pool-config-summary').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('pool-config-count-change').innerText()).toContain('3');
    expect(await page.getByTestId('pool-config-count-same').innerText()).toContain(String(COUNT - 4));
    expect(await page.getByTestId('pool-config-count-invalid').innerText()).toContain('1');
    const invalid = await page.getByTestId('pool-config-invalid').innerText();
    expect(invalid).toContain('5');
    expect(invalid).toContain(minerIp(3));
    expect(invalid).toContain('pool address format incorrect');

    const since = mails.length;
    await page.getByTestId('batch-code-send').click();
    const code = await waitForCode(since);
    await page.getByTestId('batch-code-input').fill(code);
    await page.getByTestId('pool-config-apply').click();

    await page.getByTestId('pool-config-batches').waitFor({ timeout: 15_000 });
    const batches = page.getByTestId('pool-config-batch');
    await expect.poll(() => batches.count()).toBe(2);
    expect(await batches.nth(0).innerText()).toContain('2 miners');
    expect(await batches.nth(1).innerText()).toContain('1 miner');

    const log = await api.get<{ list: { op: string; total: number }[] }>('/api/log/batchList', { agentKey: FARM });
    expect(log.list.filter((r) => r.op === 'batchSetPool').map((r) => r.total).sort()).toEqual([1, 2]);
    expect(errors).toEqual([]);
  });
});

describe('pool configuration file at 360 px', () => {
  it('checks a CSV file in the dialog without scrolling sideways', async () => {
    const context = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      await openPage(page);
      await page.getByTestId('pool-config-open').click();
      await page.getByTestId('pool-config-download').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      const csv = `IP,SN,Model,Pool 1 URL,Pool 1 worker\n${minerIp(10)},,,${POOL_B},custb.w10\nnot-an-ip,,,${POOL_B},w\n`;
      await page.getByTestId('pool-config-dialog').locator('input[type="file"]').setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByTestId('pool-config-summary').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('pool-config-count-change').innerText()).toContain('1');
      expect(await page.getByTestId('pool-config-invalid').innerText()).toContain('Enter a correct IP address');
      await page.getByTestId('pool-config-apply').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    } finally {
      await context.close();
    }
  }, 120_000);
});
