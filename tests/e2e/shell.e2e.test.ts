/**
 * Shell: sidebar fold and drawer, unknown routes, filtered sidebar and 403 for a restricted role, farm
 * switching, error pages (spec 1 §2, §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RoleRow } from '@shared/schemas/access';
import { launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors, type ApiSession } from '../support/e2e-browser';
import { startServer, type E2EServer } from '../support/e2e-server';

let server: E2EServer;
let browser: Browser;
let admin: ApiSession;
const VIEWER = { user: 'viewer', password: 'viewer-pass-1' };
const LONER = { user: 'loner', password: 'loner-pass-1' };

beforeAll(async () => {
  server = await startServer();
  admin = await setupAdmin(server.url);
  await admin.post('/api/agent/createv2', { agentName: 'North Hall', agentKey: 'north-hall', noticeEmails: '', agentAddr: '' });
  await admin.post('/api/agent/createv2', { agentName: 'South Yard', agentKey: 'south-yard', noticeEmails: '', agentAddr: '' });
  const role = await admin.post<RoleRow>('/api/role/save', { name: 'Viewer', remark: 'dashboard and farms only', permissions: '1000,60000' });
  await admin.post('/api/user/save', { user: VIEWER.user, password: VIEWER.password, roleId: role.id, agentKeys: 'north-hall', disabled: false });
  await admin.post('/api/user/save', { user: LONER.user, password: LONER.password, roleId: role.id, agentKeys: '', disabled: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('sidebar', () => {
  it('is 230 px, folds to 80 px and back on click (1440 px)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    const errors = trackPageErrors(page);
    await loginUi(page);
    const sidebar = page.getByTestId('sidebar');
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(230);
    await page.locator('[data-menu-key="dashboard"]').waitFor();
    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(80);
    expect(await page.getByTestId('app-shell').getAttribute('data-sidebar')).toBe('folded');
    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(230);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('starts folded below the lg breakpoint (1024 px)', async () => {
    const ctx = await browser.newContext({ baseURL: server.url, viewport: { width: 1024, height: 768 }, serviceWorkers: 'block', locale: 'en-US' });
    const page = await ctx.newPage();
    await loginUi(page);
    await expect.poll(async () => (await page.getByTestId('sidebar').boundingBox())?.width).toBe(80);
    await ctx.close();
  });

  it('is a drawer on a 360 px phone and closes after navigating', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    await loginUi(page);
    // A phone lands on the technician's field app; the console is one tap away ("Full console").
    if (new URL(page.url()).pathname.startsWith('/field')) {
      await page.getByTestId('field-menu').click();
      await page.getByTestId('field-full-console').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/field'));
    }
    await page.getByTestId('sidebar-burger').waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await page.getByTestId('sidebar-burger').click();
    const drawer = page.locator('.mantine-Drawer-content');
    await drawer.locator('[data-menu-key="agentList"]').click();
    await page.waitForURL('**/agents');
    await drawer.waitFor({ state: 'hidden' });
    // Nothing overflows the phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await ctx.close();
  });
});

describe('routes', () => {
  it('sends unknown paths to / when a farm is selected', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.getByTestId('dashboard-page').waitFor();
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByTestId('dashboard-page').waitFor();
    // A catalogue page that is not built yet is not routed either.
    await page.goto('/dashboard/dataDrive');
    await page.waitForURL((u) => u.pathname === '/');
    await ctx.close();
  });

  it('sends unknown paths to /agents when the user has no farm', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    await loginUi(page, LONER.user, LONER.password);
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === '/agents');
    await ctx.close();
  });

  it('renders /500, /404 and /email (the latter two layouts differ)', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'phone' });
    const page = await ctx.newPage();
    await page.goto('/500');
    await page.getByText('Sorry, something went wrong').waitFor();
    await page.goto('/email?redirect=/agents');
    await page.getByTestId('email-page').waitFor();
    expect(await page.getByTestId('app-shell').count()).toBe(0);
    await ctx.close();
  });

  it("fetches a page's code again after a dropped connection; lost every time, the 500 page", async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.getByTestId('dashboard-page').waitFor();
    let dropped = 0;
    let dropAll = false;
    await page.route(/\/assets\/model-stats-page-[^/?]*\.js(\?|$)/, async (route) => {
      if (dropAll || dropped < 2) {
        dropped++;
        await route.abort('connectionreset');
      } else await route.continue();
    });
    await page.goto('/statistics/deviceType');
    await page.getByTestId('model-stats-page').waitFor({ timeout: 20_000 });
    expect(dropped).toBe(2);

    dropAll = true;
    dropped = 0;
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/500', { timeout: 20_000 });
    expect(dropped).toBeGreaterThanOrEqual(3); // the first try and two more
    await ctx.close();
  });

  it('switching farm keeps a farm-independent page and returns to / from a farm page', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    await loginUi(page);
    await page.goto('/agents');
    await page.getByTestId('farm-select').click();
    await page.getByRole('option', { name: 'South Yard' }).click();
    expect(new URL(page.url()).pathname).toBe('/agents');
    await page.goto('/setting/agent/agent');
    await page.getByTestId('farm-select').click();
    await page.getByRole('option', { name: 'North Hall' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByTestId('dashboard-farm-name').getByText('North Hall').waitFor();
    await ctx.close();
  });
});

describe('header', () => {
  it('saves the region of the farm and posts a page view on every route change', async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    const page = await ctx.newPage();
    const views: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/analytics/pageview') views.push(new URLSearchParams(r.postData() ?? '').get('path') ?? '');
    });
    await loginUi(page);
    await page.getByTestId('dashboard-page').waitFor();
    await expect.poll(() => views.at(-1)).toBe('/');
    await page.locator('[data-menu-key="agentList"]').click();
    await expect.poll(() => views.at(-1), { timeout: 10_000 }).toBe('/agents');
    await page.locator('[data-menu-key="dashboard"]').click();
    await expect.poll(() => views.slice(-3), { timeout: 10_000 }).toEqual(['/', '/agents', '/']);

    const region = page.getByTestId('region-select');
    await expect.poll(() => region.isEnabled()).toBe(true);
    await region.click();
    await page.getByRole('option', { name: 'Europe' }).click();
    await expect.poll(async () => (await admin.get<{ region: string }>('/api/agent/getAgentRegion', { agentKey: 'north-hall' })).region).toBe('eu');
    await expect.poll(() => region.inputValue()).toBe('Europe');
    await ctx.close();
  });
});

describe('permissions', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`a restricted role sees only its entries and gets 403 elsewhere (${viewport})`, async () => {
      const ctx = await newContext(browser, server.url, { viewport });
      const page = await ctx.newPage();
      await loginUi(page, VIEWER.user, VIEWER.password);
      if (viewport === 'phone') await page.getByTestId('sidebar-burger').click();
      const nav = page.getByTestId('sidebar-nav');
      await nav.locator('[data-menu-key="dashboard"]').waitFor();
      const keys = await nav.locator('[data-menu-key]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-key')));
      expect(keys.sort()).toEqual(['agentList', 'dashboard']);
      await page.goto('/setting/role');
      await page.getByTestId('page-403').waitFor();
      expect(new URL(page.url()).pathname).toBe('/setting/role');
      await ctx.close();
    });
  }
});
