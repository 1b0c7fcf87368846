/**
 * Pages that need a farm, opened before any farm exists (a new installation, or a user who belongs to none): each says
 * so in one way — what is missing, what to do, a link to the farm list — in the user's language, at phone width too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { VIEWPORTS, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  await setupAdmin(server.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every page of the console that shows one farm's data and has no farm to show. */
const PAGES = [
  '/device/miner',
  '/device/miner/detail?ip=10.0.0.1',
  '/device/miners',
  '/device/hash',
  '/statistics/deviceType',
  '/miner/probes',
  '/setting/customer',
  '/setting/agent/agent',
  '/setting/agent/pool',
  '/setting/agent/ip',
  '/setting/agent/subArea',
  '/setting/agent/subIp',
];

describe('pages without a farm', () => {
  it('say so the same way on every page, at 360 px, and lead to the farm list', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone', locale: 'en-US' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await loginUi(page);
    for (const path of PAGES) {
      await page.goto(path);
      const state = page.getByTestId('no-farm');
      await state.waitFor();
      expect(await state.innerText(), path).toContain('No farm selected');
      // the probes page has no header: its line says where the farm is chosen
      const help = path === '/miner/probes' ? 'The probes show the farm chosen in the console' : 'Choose a farm in the header, or create one first.';
      expect(await state.innerText(), path).toContain(help);
      expect(await state.getByRole('link', { name: 'Go to farms' }).getAttribute('href'), path).toBe('/agents');
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    }
    await page.getByTestId('no-farm').getByRole('link', { name: 'Go to farms' }).click();
    await page.waitForURL('**/agents');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('speaks the user’s language', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop', locale: 'ru-RU' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.goto('/setting/agent/subArea');
    await page.getByTestId('no-farm').getByText('Ферма не выбрана').waitFor();
    await page.getByTestId('no-farm').getByRole('link', { name: 'К списку ферм' }).waitFor();
    await page.goto('/device/miner?i18n=zh-CN');
    await page.getByTestId('no-farm').getByText('未选择矿场').waitFor();
    await page.getByTestId('no-farm').getByRole('link', { name: '前往矿场列表' }).waitFor();
    await ctx.close();
  });
});
