/**
 * Roles and users end to end: a role with a restricted permission matrix, a user holding it; that user's
 * sidebar shows only the allowed entries and the server answers 403 for a hidden page's call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type E2EServer } from '../support/e2e-server';
import { ADMIN, ApiSession, launchBrowser, loginApi, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';

let server: E2EServer;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let api: ApiSession;
let pageErrors: Error[];

const VIEWER = { user: 'viewer1', password: 'viewer-pass-1' };

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await api.post('/api/agent/createv2', { agentName: 'North site', agentKey: 'north-1', noticeEmails: '', agentAddr: '', selfManaged: false });
  browser = await launchBrowser();
  admin = await newContext(browser, server.url, { viewport: 'desktop' });
  page = await admin.newPage();
  pageErrors = trackPageErrors(page);
  await loginUi(page);
}, 180_000);

afterAll(async () => {
  await admin?.close();
  await browser?.close();
  await server?.close();
});

const cell = (entry: string, key: number) => page.getByTestId('permission-matrix').locator(`[data-entry="${entry}"] input[data-perm="${key}"]`);

describe('roles and users', () => {
  it('creates a role with a restricted matrix', async () => {
    await page.goto('/setting/role');
    await page.getByTestId('role-new').click();
    const dialog = page.getByTestId('role-form-dialog').getByRole('dialog');
    await dialog.waitFor();
    await dialog.locator('[name="name"]').fill('Farm viewer');
    // Saving nothing is refused on the client.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose at least one page').waitFor();
    await cell('agentList', 60000).check();
    await cell('hostInfo', 60100).check();
    await cell('accountSecurity', 64000).check();
    // Operate implies view.
    await cell('users', 66500).check();
    expect(await cell('users', 66000).isChecked()).toBe(true);
    await cell('users', 66000).uncheck();
    expect(await cell('users', 66500).isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Save success').first().waitFor();
    await page.getByTestId('data-table').locator('tr', { hasText: 'Farm viewer' }).waitFor();
    const roles = await api.get<Array<{ name: string; permissions: number[] }>>('/api/role/list');
    expect(roles.find((r) => r.name === 'Farm viewer')?.permissions.sort()).toEqual([60000, 60100, 64000]);
  });

  it('shows the built-in administrator role read-only', async () => {
    await page.getByRole('button', { name: 'View: administrator' }).click();
    const dialog = page.getByTestId('role-form-dialog').getByRole('dialog');
    await dialog.getByText('The built-in administrator role holds every permission', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await cell('users', 66000).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('creates a user with that role and farm (validation first)', async () => {
    await page.goto('/setting/user');
    await page.getByTestId('user-new').click();
    const dialog = page.getByTestId('user-form-dialog').getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter the password').waitFor();
    await dialog.getByText('Choose a role').first().waitFor();
    expect(await dialog.locator('[name="areaCode"]').inputValue()).toBe('86');

    await dialog.locator('[name="user"]').fill(VIEWER.user);
    await dialog.locator('input[name="password"]').fill(VIEWER.password);
    await dialog.locator('[name="email"]').fill('viewer@example.com');
    await dialog.locator('input[data-path="roleId"]').click();
    await page.getByRole('option', { name: 'Farm viewer' }).click();
    await dialog.locator('input[data-path="agentKeys"]').click();
    await page.getByRole('option', { name: 'North site (north-1)' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Save success').first().waitFor();
    await page.getByTestId('data-table').locator('tr', { hasText: VIEWER.user }).waitFor();
  });

  it("shows that user only the allowed sidebar entries; the server refuses a hidden page's call", async () => {
    const ctx = await newContext(browser, server.url, { viewport: 'desktop' });
    try {
      const p = await ctx.newPage();
      await loginUi(p, VIEWER.user, VIEWER.password);
      const nav = p.getByTestId('sidebar-nav');
      await nav.locator('[data-menu-key="agentList"]').waitFor();
      const keys = await nav.locator('[data-menu-key]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-key')));
      expect(keys.sort()).toEqual(['accountSecurity', 'agentList', 'hostInfo']);

      // The farm list is visible but read-only: no create, no actions.
      await p.goto('/agents');
      await p.getByTestId('data-table').locator('tr', { hasText: 'north-1' }).waitFor();
      expect(await p.getByTestId('farm-new').count()).toBe(0);
      expect(await p.getByTestId('farm-actions-north-1').count()).toBe(0);
    } finally {
      await ctx.close();
    }
    const viewer = await loginApi(server.url, VIEWER.user, VIEWER.password);
    await expect(viewer.get('/api/role/list')).rejects.toThrow(/→ 403 /);
    await expect(viewer.get('/api/user/list', { page: 1, pageSize: 50 })).rejects.toThrow(/→ 403 /);
    await expect(viewer.get('/api/agent/pagelist', { page: 1, pageSize: 50 })).resolves.toMatchObject({ total: 1 });
  });

  it('refuses to delete a role in use with the server message', async () => {
    await page.goto('/setting/role');
    await page.getByRole('button', { name: 'Delete: Farm viewer' }).click();
    await page.getByRole('dialog', { name: 'Delete this role?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('This role is assigned to users', { exact: false }).first().waitFor();
  });

  it('lists the sessions of the account and signs out another device', async () => {
    const other = await loginApi(server.url, ADMIN.user, ADMIN.password);
    await page.goto('/safety/accountSecurity');
    await page.getByTestId('current-session-badge').waitFor();
    const revoke = page.getByTestId('data-table').getByRole('button', { name: 'Sign out' });
    const before = await revoke.count();
    expect(before).toBeGreaterThanOrEqual(2);
    await revoke.first().click();
    await page.getByRole('dialog', { name: 'Sign out this device?' }).getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Operation success').first().waitFor();
    await expect.poll(() => revoke.count()).toBe(before - 1);
    expect(await page.getByRole('link', { name: 'Open user center' }).getAttribute('href')).toBe('/user/center');
    // At least one of the two API sessions (setup and this login) was the one signed out.
    const results = await Promise.allSettled([api.get('/api/userv2/info'), other.get('/api/userv2/info')]);
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
  });

  it('raised no page error', () => {
    expect(pageErrors.map((e) => e.message)).toEqual([]);
  });
});
