/**
 * Abnormal alarms (/alarm/security) on the real chain: server + simulated fleet (12 miners: stock Antminers and
 * Whatsminers) + the real agent. One Antminer is hijacked in the simulator (ssh-intrusion: SSH answers, its log shows 8
 * failed root passwords from 203.0.113.45 and then a login). At 1440 px: Scan now → the running scan shows its progress
 * → the agent probes SSH and reads the logs → the hijacked miner is listed as suspicious with its description, its
 * evidence opens in the drawer, and the history counts what the scan found; it is marked processed with a note; a
 * reboot by range reboots its neighbourhood with live progress and the simulated miner goes dark. At 360 px the page
 * does not scroll sideways.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityScanSupported } from '@shared/security-scan';
import { type E2EFarm, startE2EFarm } from '../support/e2e-farm';
import { launchBrowser, loginUi, newContext, selectFarm, suitePage, tableRowKeys, VIEWPORTS } from '../support/e2e-browser';

const FARM = 'security-farm';

let farm: E2EFarm;
let browser: Browser;
let hijacked: string;

beforeAll(async () => {
  farm = await startE2EFarm({ agentKey: FARM, cidr: '127.57.0.0/24', miners: 12, seed: 71, mix: { 'antminer-stock': 3, whatsminer: 1 } });
  const target = farm.fleet.miners.find((m) => m.family === 'antminer-stock' && securityScanSupported(m.model.make, m.model.model));
  if (!target) throw new Error('the fleet has no Antminer the scan covers');
  hijacked = target.ip;
  target.injectFault('ssh-intrusion', true);
  await farm.waitForMiners(12, { online: true });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await farm?.close();
});

async function openPage(page: Page): Promise<void> {
  await loginUi(page);
  await selectFarm(page, FARM);
  await page.goto('/alarm/security');
  await page.getByTestId('security-page').waitFor();
}

describe('abnormal alarms at 1440 px', () => {
  const s = suitePage(() => browser, () => farm.server.url, openPage);

  it('scans the farm through the agent, lists the hijacked miner, shows its evidence and marks it processed', async () => {
    const { page, errors } = s;
    await page.getByText('No suspicious SSH behaviour found').waitFor();
    // automatic scans: daily by default, the next one a day after the farm was created; weekly from now on
    expect(await page.getByTestId('security-auto-select').inputValue()).toBe('Daily');
    expect(await page.getByTestId('security-auto-next').innerText()).toMatch(/^Next: \d{4}-\d\d-\d\d/);
    await page.getByTestId('security-auto-select').click();
    await page.getByRole('option', { name: 'Weekly', exact: true }).click();
    await expect.poll(async () => (await farm.api.get<{ autoScanHours: number }>('/api/security/settings', { agentKey: FARM })).autoScanHours).toBe(168);
    await page.getByTestId('security-scan').click();
    await page.getByTestId('security-scan-start').click();
    await page.getByText(/^Scan queued for \d+ miners/).waitFor();
    await page.getByTestId('security-running').waitFor({ timeout: 10_000 }).catch(() => undefined); // may already be over
    await expect.poll(() => tableRowKeys(page), { timeout: 45_000, interval: 500 }).toHaveLength(1);
    const row = page.locator('[data-testid="data-table-row"]').first();
    expect(await row.innerText()).toContain(hijacked);
    expect(await row.innerText()).toContain("SSH login as root from 203.0.113.45");
    expect(await row.innerText()).toContain('8 failed SSH passwords from 203.0.113.45 (brute force)');
    expect(await row.innerText()).toMatch(/SSH answers \(SSH-2\.0-/);
    expect(await page.getByTestId('security-filter-suspicious').innerText()).toBe('Suspicious 1');

    await row.click();
    const drawer = page.getByTestId('security-record');
    await drawer.getByTestId('security-events').waitFor();
    expect(await drawer.innerText()).toContain("Bad password attempt for 'root' from 203.0.113.45");
    await drawer.getByTestId('security-record-process').click();
    await page.getByTestId('security-process-note').fill('rebooted, root password changed');
    await page.getByTestId('security-process-save').click();
    await page.getByText('1 record processed').waitFor();
    await expect.poll(() => page.getByTestId('security-filter-processed').innerText()).toBe('Processed 1');
    expect(await page.getByTestId('security-filter-suspicious').innerText()).toBe('Suspicious 0');
    expect(await page.locator('[data-testid="data-table-row"]').first().innerText()).toContain('rebooted, root password changed');

    await page.getByTestId('security-tab-history').click();
    const scanRow = page.locator('[data-testid="data-table-row"]').first();
    await expect.poll(() => scanRow.innerText()).toMatch(/done/i);
    expect(await scanRow.innerText()).toContain('Whole farm');
    await page.getByTestId('security-tab-records').click();
    expect(errors).toEqual([]);
  }, 120_000);

  it('reboots a range with live progress; the hijacked miner goes dark', async () => {
    const { page, errors } = s;
    await page.getByTestId('security-reboot').click();
    await page.getByTestId('security-reboot-begin').fill(hijacked);
    await page.getByTestId('security-reboot-end').fill('300.1.1.1');
    await page.getByTestId('security-reboot-next').click();
    await page.getByText('Enter a correct IP address').waitFor();
    await page.getByTestId('security-reboot-end').fill(hijacked);
    await page.getByTestId('security-reboot-next').click();
    await page.getByTestId('security-reboot-confirm').click();
    // The progress every batch shows: the operation, done / total, the miners done.
    await page.getByTestId('batch-progress').waitFor();
    await expect.poll(() => page.getByTestId('batch-progress-status').innerText(), { timeout: 30_000 }).toMatch(/^finished$/i);
    expect(await page.getByTestId('batch-progress').innerText()).toContain('Reboot');
    expect(await page.getByTestId('batch-progress-count').innerText()).toBe('1 / 1 done');
    expect(await page.getByTestId('batch-progress-successes').innerText()).toBe(hijacked);
    await expect.poll(() => farm.fleet.miner(hijacked)?.state, { timeout: 10_000 }).not.toBe('online');
    await page.getByTestId('security-reboot-close').click();
    expect(errors).toEqual([]);
  }, 90_000);
});

describe('abnormal alarms at 360 px', () => {
  it('fits the phone width', async () => {
    const context = await newContext(browser, farm.server.url, { viewport: 'phone' });
    try {
      const page = await context.newPage();
      await openPage(page);
      await page.locator('[data-testid="data-table-row"]').first().waitFor();
      await page.getByTestId('security-status-processed').click();
      await page.getByTestId('security-events').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    } finally {
      await context.close();
    }
  }, 120_000);
});
