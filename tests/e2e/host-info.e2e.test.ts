/**
 * NUC host info (/agents/hostInfo and its detail page): what each farm's agent reports about its computer, with the
 * sizing check against spec 1 §9 — fed by the agent's own heartbeat call, at phone width and on the desktop.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { UplinkClient } from '@agent/uplink';
import { type ApiSession, createFarmWithMiners, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  browser = await launchBrowser();
  const secret = await createFarmWithMiners(api, { agentKey: 'row-three', agentName: 'Row three' }, 40, new Date().toISOString());
  // The heartbeat through the agent's own uplink client, with its computer's report.
  await new UplinkClient(server.url, 'row-three', secret).heartbeat({
    agentVersion: '0.1.0',
    startedAt: new Date().toISOString(),
    netDelayMs: 35,
    bufferedBatches: 0,
    miners: 40,
    host: { hostname: 'nuc-row-3', os: 'Debian GNU/Linux 12 (bookworm), x64', cpuCores: 2, memoryMb: 16384, diskFreeMb: 51200, uptimeSec: 93_784, ip: '10.0.3.5' },
  });
  // A farm whose agent has not reported yet.
  await api.post('/api/agent/createv2', { agentKey: 'row-four', agentName: 'Row four', noticeEmails: '', agentAddr: '', selfManaged: false });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('NUC host info', () => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`lists every farm's NUC and opens one with its sizing check (${viewport})`, async () => {
      const ctx = await newContext(browser, server.url, { viewport });
      const page = await ctx.newPage();
      const errors = trackPageErrors(page);
      await loginUi(page);
      await page.goto('/agents/hostInfo');
      const table = page.getByRole('table', { name: 'NUC host info' });
      const reported = table.getByRole('row').filter({ hasText: 'Row three' });
      await reported.getByText('nuc-row-3').waitFor();
      await reported.getByText('10.0.3.5').waitFor();
      await reported.getByText('1 d 2 h 3 min').waitFor();
      const silent = table.getByRole('row').filter({ hasText: 'Row four' });
      await silent.waitFor();
      expect(await silent.getByText('nuc-row-3').count()).toBe(0);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);

      await reported.getByText('nuc-row-3').click();
      await page.waitForURL('**/agents/hostInfo/detail?agentKey=row-three');
      await page.getByText('Debian GNU/Linux 12 (bookworm), x64').waitFor();
      await page.getByText('16 GB').first().waitFor();
      await page.getByText('50 GB').first().waitFor();
      // 40 miners: 4 cores and 16 GB recommended. 2 cores are below it, 16 GB is enough.
      const check = page.getByTestId('sizing-check');
      await check.getByText('Recommended for 40 miners').waitFor();
      const cpu = check.getByRole('row').filter({ hasText: 'CPU cores' });
      await cpu.getByLabel('Below the recommendation').waitFor();
      const memory = check.getByRole('row').filter({ hasText: 'Memory' });
      await memory.getByLabel('OK').waitFor();
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      // The marks are in view inside the table's card: on a phone they were scrolled off its right edge.
      const mark = await cpu.getByLabel('Below the recommendation').boundingBox();
      const frame = await check.locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")]').boundingBox();
      expect((mark?.x ?? Infinity) + (mark?.width ?? 0)).toBeLessThanOrEqual((frame?.x ?? 0) + (frame?.width ?? 0));
      if (viewport === 'phone') expect((await page.getByTestId('host-detail-farms').boundingBox())?.height).toBeGreaterThanOrEqual(32);

      // The farm whose agent never reported: nothing made up.
      await page.goto('/agents/hostInfo/detail?agentKey=row-four');
      await page.getByRole('heading', { name: 'Row four' }).waitFor();
      expect(await page.getByTestId('sizing-check').getByText('Not reported').count()).toBe(3); // CPU, memory, delay
      // No farm named: said so, with the way back.
      await page.goto('/agents/hostInfo/detail');
      await page.getByText('No agent key given').waitFor();
      await page.getByRole('link', { name: 'Back' }).click();
      await page.waitForURL('**/agents/hostInfo');
      expect(errors).toEqual([]);
      await ctx.close();
    });
  }
});
