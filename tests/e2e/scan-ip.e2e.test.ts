/**
 * Scan IP ranges end to end (/setting/agent/ip) at 1440 px and 360 px: add a range (the bad-IP message,
 * the server's overlap message, said once), batch add with a bad line and a line overlapping a saved range (both
 * line-numbered at once, nothing saved) then fixed, batch delete of selected rows. On a phone the dialogs are full
 * screen, a row shows the whole range with its address count, and the page does not scroll sideways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ScanIpRange } from '@shared/schemas/scan-ip';
import { startServer, type E2EServer } from '../support/e2e-server';
import { ApiSession, VIEWPORTS, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors, type ViewportName } from '../support/e2e-browser';

const FARM = 'scan-farm';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let secret = '';

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  ({ secret } = await api.post<{ secret: string }>('/api/agent/createv2', { agentName: 'Scan farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false }));
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const listRanges = () => api.get<ScanIpRange[]>('/api/scanip/list', { agentKey: FARM });

async function clearRanges(): Promise<void> {
  const rows = await listRanges();
  if (rows.length) await api.post('/api/scanip/delete', { agentKey: FARM, scanIpId: rows.map((r) => r.id).join(',') });
}

async function expectFullWidth(page: Page, testId: string, width: number): Promise<void> {
  const box = await page.getByTestId(testId).locator('.mantine-Modal-content').boundingBox();
  expect(box?.width).toBe(width);
}

describe.each(['desktop', 'phone'] as ViewportName[])('scan IP ranges at %s', (viewport) => {
  let page: Page;
  let pageErrors: Error[];
  const width = VIEWPORTS[viewport].width;
  const table = () => page.getByTestId('data-table');
  const row = (text: string) => table().locator('tr', { hasText: text });
  const formDialog = () => page.getByTestId('scan-ip-form-dialog').getByRole('dialog');
  const batchDialog = () => page.getByTestId('scan-ip-batch-dialog').getByRole('dialog');

  beforeAll(async () => {
    await clearRanges();
    const context = await newContext(browser, server.url, { viewport });
    page = await context.newPage();
    pageErrors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/setting/agent/ip');
    await page.getByTestId('data-table-empty').waitFor();
  }, 120_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('shows the empty list without horizontal scrolling', async () => {
    await expect(page.getByTestId('data-table-empty').textContent()).resolves.toContain('No IP ranges yet');
    await expect(page.getByTestId('scan-ip-total').textContent()).resolves.toBe('0 ranges · 0 addresses');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });

  it('adds a range: the bad-IP message first, then saved', async () => {
    await page.getByTestId('scan-ip-new').click();
    await formDialog().waitFor();
    if (viewport === 'phone') {
      await expectFullWidth(page, 'scan-ip-form-dialog', width);
      // The close button is a tap of at least 32 px (Mantine's default is 28 px).
      expect((await page.getByTestId('scan-ip-form-dialog').locator('.mantine-Modal-close').boundingBox())?.height).toBeGreaterThanOrEqual(32);
    }
    // One address: "1 address", not "1 addresses".
    await formDialog().locator('[name="ipBegin"]').fill('192.168.1.1');
    await formDialog().locator('[name="ipEnd"]').fill('192.168.1.1');
    await formDialog().getByTestId('scan-ip-form-amount').getByText('1 address in this range').waitFor();
    await formDialog().locator('[name="ipBegin"]').fill('192.168.1.300');
    await formDialog().locator('[name="ipEnd"]').fill('192.168.1.254');
    await formDialog().getByRole('button', { name: 'Save' }).click();
    await formDialog().getByText('Enter a correct IP address').waitFor();
    expect(await listRanges()).toEqual([]);

    await formDialog().locator('[name="ipBegin"]').fill('192.168.1.1');
    await formDialog().locator('[name="remark"]').fill('Row A');
    await formDialog().getByTestId('scan-ip-form-amount').getByText('254 addresses in this range').waitFor();
    await formDialog().getByRole('button', { name: 'Save' }).click();
    await formDialog().waitFor({ state: 'detached' });
    await page.getByText('Save success', { exact: true }).first().waitFor();
    await row('192.168.1.254').waitFor();
    expect(await row('192.168.1.254').textContent()).toContain('Row A');
    await page.getByTestId('scan-ip-total').getByText('1 range · 254 addresses').waitFor();
    expect((await listRanges()).map((r) => [r.ipBegin, r.ipEnd, r.amount])).toEqual([['192.168.1.1', '192.168.1.254', 254]]);
    if (viewport === 'phone') {
      // The whole range, its number, address count and remark fit on the screen (the end address and count were off
      // it), clear of the pinned actions column (the range column ran under it: "10.0.0.1 – 10.0.").
      const cell = row('192.168.1.254').getByTestId('scan-ip-range-cell');
      expect(await cell.textContent()).toBe('192.168.1.1 – 192.168.1.254No. 1 · 254 addresses · Row A');
      const box = await cell.boundingBox();
      expect((box?.x ?? width) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      const edit = await row('192.168.1.254').getByRole('button', { name: /^Edit/ }).boundingBox();
      expect((box?.x ?? width) + (box?.width ?? 0)).toBeLessThanOrEqual(edit?.x ?? 0);
      // The row's buttons are a finger's target (34 px; 28 with a mouse), both inside the screen.
      const del = await row('192.168.1.254').getByRole('button', { name: /^Delete/ }).boundingBox();
      for (const b of [edit, del]) expect(Math.min(b?.width ?? 0, b?.height ?? 0)).toBeGreaterThanOrEqual(32);
      expect((del?.x ?? width) + (del?.width ?? 0)).toBeLessThanOrEqual(width);
      expect(await table().locator('th', { hasText: 'Actions' }).evaluate((th) => th.scrollWidth <= th.clientWidth)).toBe(true);
    }
  });

  it("shows the server's overlap message on the field", async () => {
    await page.getByTestId('scan-ip-new').click();
    await formDialog().waitFor();
    await formDialog().locator('[name="ipBegin"]').fill('192.168.1.100');
    await formDialog().locator('[name="ipEnd"]').fill('192.168.1.120');
    await formDialog().getByRole('button', { name: 'Save' }).click();
    await formDialog().getByText('Overlaps range No. 1 (192.168.1.1 – 192.168.1.254)').first().waitFor();
    // Said once, under the field: not again in a notification.
    await page.waitForTimeout(300);
    expect(await page.locator('.mantine-Notification-root', { hasText: 'Overlaps range' }).count()).toBe(0);
    await formDialog().getByRole('button', { name: 'Cancel' }).click();
    await formDialog().waitFor({ state: 'detached' });
    expect(await listRanges()).toHaveLength(1);
  });

  it('batch add: a bad line is named and nothing is saved; fixed, all three are saved', async () => {
    await page.getByTestId('scan-ip-batch').click();
    await batchDialog().waitFor();
    if (viewport === 'phone') await expectFullWidth(page, 'scan-ip-batch-dialog', width);
    const text = batchDialog().locator('textarea[name="scanIpList"]');
    await text.fill(['10.1.0.1-10.1.0.100-Hall 1 - left', '10.1.1.1-10.1.1.999-Hall 1 - right', '10.2.0.1-10.2.0.50', '192.168.1.200-192.168.2.10-overlaps Row A'].join('\n'));
    await batchDialog().getByRole('button', { name: 'Import' }).click();
    const errors = batchDialog().getByTestId('scan-ip-batch-errors');
    // Every problem at once, the overlap with the saved range too (it used to come only after fixing the rest).
    await errors.getByText('Line 2: Enter a correct IP address').waitFor();
    await errors.getByText('Line 4: Overlaps range No. 1 (192.168.1.1 – 192.168.1.254)').waitFor();
    await errors.getByText('Nothing was saved.').waitFor();
    expect(await errors.locator('li').count()).toBe(2);
    expect(await listRanges()).toHaveLength(1);
    if (viewport === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await text.fill(['10.1.0.1-10.1.0.100-Hall 1 - left', '10.1.1.1-10.1.1.200-Hall 1 - right', '10.2.0.1-10.2.0.50'].join('\n'));
    await errors.waitFor({ state: 'detached' });
    await batchDialog().getByTestId('scan-ip-batch-summary').getByText('3 ranges, 350 addresses').waitFor();
    await batchDialog().getByRole('button', { name: 'Import' }).click();
    await batchDialog().waitFor({ state: 'detached' });
    await page.getByText('Save success: 3 ranges added').first().waitFor();
    await row('10.2.0.50').waitFor();
    await page.getByTestId('scan-ip-total').getByText('4 ranges · 604 addresses').waitFor();
    const saved = await listRanges();
    expect(saved.map((r) => [r.sortNo, r.ipBegin, r.ipEnd, r.remark, r.amount])).toEqual([
      [1, '192.168.1.1', '192.168.1.254', 'Row A', 254],
      [2, '10.1.0.1', '10.1.0.100', 'Hall 1 - left', 100],
      [3, '10.1.1.1', '10.1.1.200', 'Hall 1 - right', 200],
      [4, '10.2.0.1', '10.2.0.50', '', 50],
    ]);
  });

  it('batch deletes the selected rows after confirmation', async () => {
    const deleteSelected = page.getByTestId('scan-ip-delete-selected');
    expect(await deleteSelected.isDisabled()).toBe(true);
    await row('10.1.0.100').locator('input[type="checkbox"]').check();
    await row('10.2.0.50').locator('input[type="checkbox"]').check();
    await deleteSelected.getByText('Delete selected (2)').waitFor();
    await deleteSelected.click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 IP ranges?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delete success', { exact: true }).first().waitFor();
    await row('10.2.0.50').waitFor({ state: 'detached' });
    await page.getByTestId('scan-ip-total').getByText('2 ranges · 454 addresses').waitFor();
    expect((await listRanges()).map((r) => [r.sortNo, r.ipBegin])).toEqual([
      [1, '192.168.1.1'],
      [2, '10.1.1.1'],
    ]);
    expect(await deleteSelected.isDisabled()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });

  it('shows a remark the table cuts off whole on a tap', async () => {
    const remark = 'Hall 2, left aisle, racks 14 to 19 behind the cooling wall (ask the shift lead for the key)';
    const [first] = await listRanges();
    await api.post('/api/scanip/save', { agentKey: FARM, scanIpId: first!.id, ipBegin: first!.ipBegin, ipEnd: first!.ipEnd, remark, amount: first!.amount });
    await page.reload();
    await row('192.168.1.254').getByText(remark.slice(0, 12)).first().waitFor();
    // Desktop: the remark column; phone: the one cell holding the range, its number, count and remark (two lines).
    const cell = viewport === 'phone' ? row('192.168.1.254').getByTestId('scan-ip-range-cell') : row('192.168.1.254').locator('td', { hasText: 'Hall 2' });
    await cell.click();
    const bubble = page.getByTestId('data-table-cell-peek');
    expect(await bubble.innerText()).toContain(remark);
    const box = await bubble.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width).toBe(true);
    // The next tap elsewhere closes it.
    await page.getByTestId('scan-ip-total').click();
    await bubble.waitFor({ state: 'detached' });
  });

  it('the agent config carries the ranges, and no page error was raised', async () => {
    const res = await fetch(`${server.url}/api/agent-uplink/config`, { headers: { Authorization: `Bearer ${FARM}.${secret}` } });
    expect(res.status).toBe(200);
    const config = ((await res.json()) as { data: { scanRanges: unknown[] } }).data;
    expect(config.scanRanges).toEqual([
      { ipBegin: '192.168.1.1', ipEnd: '192.168.1.254' },
      { ipBegin: '10.1.1.1', ipEnd: '10.1.1.200' },
    ]);
    expect(pageErrors.map((e) => e.message)).toEqual([]);
  });
});
