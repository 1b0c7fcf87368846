/**
 * Farms admin pages end to end: create a farm (validation messages, secret shown once with the agent
 * command), edit with the agentKey locked, rotate the secret, delete; the dialog is full screen on a phone; the farm's
 * miner logins (add, edit keeping the password, delete; never shown back); the farm's power against its limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type E2EServer } from '../support/e2e-server';
import { ApiSession, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { snapshotBatch, uploadBatch } from '../support/miner-snapshots';

let server: E2EServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: ApiSession;
let pageErrors: Error[];

const dialog = () => page.getByTestId('farm-form-dialog').getByRole('dialog');
const field = (name: string) => dialog().locator(`[name="${name}"]`);
const row = (agentKey: string) => page.getByTestId('data-table').locator('tr', { hasText: agentKey });

/** Creates a farm through the header's "new mining farm" button (which selects it) and closes its secret panel. */
async function createFromHeader(name: string, agentKey: string): Promise<void> {
  await page.getByTestId('header-new-farm').click();
  await field('agentName').fill(name);
  await field('agentKey').fill(agentKey);
  await dialog().getByRole('button', { name: 'Create' }).click();
  await dialog().getByRole('button', { name: 'I have saved the secret' }).click();
  await dialog().waitFor({ state: 'detached' });
}

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  browser = await launchBrowser();
  context = await newContext(browser, server.url, { viewport: 'desktop' });
  page = await context.newPage();
  pageErrors = trackPageErrors(page);
  await loginUi(page);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('farm list (/agents)', () => {
  let firstSecret = '';

  it('validates the new-farm form with the spec messages', async () => {
    await page.goto('/agents');
    await page.getByTestId('farm-new').click();
    await dialog().waitFor();
    await dialog().getByRole('button', { name: 'Create' }).click();
    await expect(dialog().getByText('Farm name is required').isVisible()).resolves.toBe(true);
    await expect(dialog().getByText('agentKey is required').isVisible()).resolves.toBe(true);

    await field('agentName').fill('East hall');
    await field('agentKey').fill('east-1');
    await field('noticeEmails').fill('ops@example.com; not-a-mail');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await dialog().getByText('multiple emails separated by commas').waitFor();
    expect(await dialog().getByText('Farm name is required').count()).toBe(0);
  });

  it('creates the farm and shows its secret once, with the agent command', async () => {
    await field('noticeEmails').fill('ops@example.com, boss@example.com');
    await field('agentAddr').fill('Row 4, container 2');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('farm-secret-panel').waitFor();
    firstSecret = ((await page.getByTestId('farm-secret-value').textContent()) ?? '').trim();
    expect(firstSecret.length).toBeGreaterThanOrEqual(16);
    const command = (await page.getByTestId('farm-secret-command').textContent()) ?? '';
    expect(command).toBe(`npm run agent -- --server ${server.url} --key east-1 --secret ${firstSecret}`);
    await expect(dialog().getByText('This secret is shown only once', { exact: false }).isVisible()).resolves.toBe(true);
    await page.getByText('Save success').first().waitFor();

    await dialog().getByRole('button', { name: 'I have saved the secret' }).click();
    await dialog().waitFor({ state: 'detached' });
    await row('east-1').waitFor();
    expect(await row('east-1').textContent()).toContain('East hall');

    // Never shown again: not in the list, not in the farm's info.
    await page.reload();
    await row('east-1').waitFor();
    expect(await page.content()).not.toContain(firstSecret);
    const info = await api.get<Record<string, unknown>>('/api/agent/info', { agentKey: 'east-1' });
    expect(JSON.stringify(info)).not.toContain(firstSecret);
  });

  it('edits the farm with its agentKey locked', async () => {
    await page.getByTestId('farm-actions-east-1').click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await dialog().waitFor();
    expect(await field('agentKey').isDisabled()).toBe(true);
    expect(await field('agentKey').inputValue()).toBe('east-1');
    expect(await field('noticeEmails').inputValue()).toBe('ops@example.com,boss@example.com');
    await field('agentName').fill('East hall B');
    await dialog().getByRole('button', { name: 'Save' }).click();
    await dialog().waitFor({ state: 'detached' });
    await row('East hall B').waitFor();
    const info = await api.get<{ name: string; agentKey: string }>('/api/agent/info', { agentKey: 'east-1' });
    expect(info).toMatchObject({ name: 'East hall B', agentKey: 'east-1' });
  });

  it('rotates the secret after confirmation and shows the new one once', async () => {
    await page.getByTestId('farm-actions-east-1').click();
    await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the agent secret?' }).getByRole('button', { name: 'Rotate' }).click();
    await page.getByTestId('farm-secret-value').waitFor();
    const rotated = ((await page.getByTestId('farm-secret-value').textContent()) ?? '').trim();
    expect(rotated).not.toBe(firstSecret);
    expect(rotated.length).toBeGreaterThanOrEqual(16);
    await page.getByRole('button', { name: 'I have saved the secret' }).click();
    await page.getByTestId('farm-secret-value').waitFor({ state: 'detached' });
  });

  it('deletes the farm after confirmation', async () => {
    await page.getByTestId('farm-actions-east-1').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this farm?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Delete success').first().waitFor();
    await row('east-1').waitFor({ state: 'detached' });
    const list = await api.get<{ total: number }>('/api/agent/pagelist', { page: 1, pageSize: 50 });
    expect(list.total).toBe(0);
  });

  it('raised no page error', () => {
    expect(pageErrors.map((e) => e.message)).toEqual([]);
  });
});

describe('farm settings (/setting/agent/agent)', () => {
  it('edits the current farm, changes its region and deletes it after typing its agentKey', async () => {
    // The header's "new mining farm" button opens the same dialog and selects the new farm.
    await createFromHeader('West hall', 'west-1');
    await page.getByTestId('sidebar-nav').locator('[data-menu-key="farmSettings"]').click();
    await page.waitForURL('**/setting/agent/agent');
    const form = page.getByTestId('farm-form');
    await form.waitFor();
    expect(await form.locator('[name="agentKey"]').inputValue()).toBe('west-1');
    expect(await form.locator('[name="agentKey"]').isDisabled()).toBe(true);

    await form.locator('[name="noticeEmails"]').fill('nope');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('multiple emails separated by commas').waitFor();
    await form.locator('[name="noticeEmails"]').fill('west@example.com');
    // The answer to this save, not just a "Save success": the farm's creation left one on screen a moment before.
    const saved = page.waitForResponse((r) => r.url().includes('/api/agent/updatev2') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Save' }).click();
    await saved;
    await page.getByText('Save success').first().waitFor();
    expect(await api.get<{ noticeEmails: string }>('/api/agent/info', { agentKey: 'west-1' })).toMatchObject({ noticeEmails: 'west@example.com' });

    await page.getByTestId('farm-region-select').click();
    const regionSaved = page.waitForResponse((r) => r.url().includes('/api/agent/updateAgentRegion') && r.request().method() === 'POST');
    await page.getByRole('option', { name: 'Europe' }).click();
    await regionSaved;
    await page.getByText('Save success').first().waitFor();
    await expect(api.get<{ region: string }>('/api/agent/getAgentRegion', { agentKey: 'west-1' })).resolves.toMatchObject({ region: 'eu' });

    await page.getByRole('button', { name: 'Delete this farm' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this farm?' });
    const submit = confirm.getByRole('button', { name: 'Delete' });
    await confirm.getByRole('textbox').fill('west');
    expect(await submit.isDisabled()).toBe(true);
    await confirm.getByRole('textbox').fill('west-1');
    await submit.click();
    await page.getByText('Delete success').first().waitFor();
    await page.waitForURL('**/agents');
    await expect(api.get('/api/agent/info', { agentKey: 'west-1' })).rejects.toThrow();
  });
});

describe('miner logins (/setting/agent/agent)', () => {
  const card = () => page.getByTestId('miner-logins-card');
  const loginForm = () => page.getByTestId('miner-login-form');

  it('adds a login, edits its user keeping the password, deletes it; the password never comes back', async () => {
    await createFromHeader('Logins hall', 'logins-1');
    await page.getByTestId('sidebar-nav').locator('[data-menu-key="farmSettings"]').click();
    await page.waitForURL('**/setting/agent/agent');
    await card().getByTestId('miner-logins-empty').waitFor();

    await page.getByTestId('miner-login-add').click();
    await loginForm().waitFor();
    await page.getByTestId('miner-login-save').click();
    await loginForm().getByText('Enter the password').waitFor();
    await loginForm().locator('[name="minerUser"]').fill('root');
    await loginForm().locator('[name="minerPassword"]').fill('Farm#pass1');
    const saved = page.waitForResponse((r) => r.url().includes('/api/agent/minerLogins/save'));
    await page.getByTestId('miner-login-save').click();
    expect(await (await saved).text()).not.toContain('Farm#pass1');
    await loginForm().waitFor({ state: 'detached' });
    const row = card().getByTestId('miner-login-row');
    await row.getByText('Antminer (stock)').waitFor();
    expect(await row.textContent()).toContain('root');
    expect(await card().textContent()).not.toContain('Farm#pass1');

    await row.getByRole('button', { name: 'Edit: Antminer (stock) root' }).click();
    await loginForm().waitFor();
    expect(await loginForm().locator('[name="minerPassword"]').getAttribute('placeholder')).toBe('Leave empty to keep the saved password');
    await loginForm().locator('[name="minerUser"]').fill('admin');
    await page.getByTestId('miner-login-save').click();
    await loginForm().waitFor({ state: 'detached' });
    await row.getByText('admin').waitFor();
    const logins = await api.get<{ family: string; user: string }[]>('/api/agent/minerLogins', { agentKey: 'logins-1' });
    expect(logins.map((l) => [l.family, l.user])).toEqual([['antminer', 'admin']]);

    await row.getByRole('button', { name: 'Delete: Antminer (stock) admin' }).click();
    await page.getByRole('dialog', { name: 'Delete this login?' }).getByRole('button', { name: 'Delete' }).click();
    await card().getByTestId('miner-logins-empty').waitFor();
  });

  it('opens its dialog full screen at 360 px, nothing wider than the screen', async () => {
    const phone = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const p = await phone.newPage();
      await loginUi(p);
      await p.goto('/setting/agent/agent');
      await p.getByTestId('miner-login-add').click();
      const content = p.locator('.mantine-Modal-content', { has: p.getByTestId('miner-login-form') });
      await content.waitFor();
      expect((await content.boundingBox())?.width).toBe(360);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await phone.close();
    }
  });
});

describe('power limit (/setting/agent/agent)', () => {
  it("shows what the online miners draw against the limit, sets a limit and warns when the farm is over it", async () => {
    await createFromHeader('Power hall', 'power-1');
    const { secret } = await api.call<{ secret: string }>('POST', '/api/agent/rotateSecret', { agentKey: 'power-1' });
    // 4 miners of 3,344 W each (tests/support/miner-snapshots): 13.4 kW
    const batch = snapshotBatch({ batchSeq: 1, count: 4, takenAt: new Date().toISOString() });
    for (const s of batch.snapshots) Object.assign(s, { powerW: 3344, online: true, missedPolls: 0, state: { ...s.state, online: true } });
    await uploadBatch(server.url, 'power-1', secret, batch);
    await page.goto('/setting/agent/agent');
    const card = page.getByTestId('farm-power-card');
    await card.getByText('Drawing 13.4 kW now').waitFor();
    await card.getByText('No limit set').waitFor();
    expect(await card.textContent()).toContain('4 of 4 online miners report their power');

    await card.getByTestId('farm-power-limit').fill('12');
    await card.getByTestId('farm-power-save').click();
    await card.getByText('Limit 12.0 kW').waitFor();
    await card.getByTestId('farm-power-over').getByText('The farm draws 1.4 kW more than its limit.').waitFor();
    await expect(api.get<{ powerLimitKw: number }>('/api/agent/power', { agentKey: 'power-1' })).resolves.toMatchObject({ powerLimitKw: 12 });

    await card.getByTestId('farm-power-limit').fill('20');
    await card.getByTestId('farm-power-save').click();
    await card.getByText('Limit 20.0 kW').waitFor();
    expect(await card.getByTestId('farm-power-over').count()).toBe(0);
  });
});

describe('farm dialog on a phone', () => {
  it('opens full screen at 360 px', async () => {
    const phone = await newContext(browser, server.url, { viewport: 'phone' });
    try {
      const p = await phone.newPage();
      await loginUi(p);
      await p.goto('/agents');
      await p.getByTestId('farm-new').click();
      const content = p.getByTestId('farm-form-dialog').locator('.mantine-Modal-content');
      await content.waitFor();
      const box = await content.boundingBox();
      expect(box?.width).toBe(360);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await phone.close();
    }
  });
});
