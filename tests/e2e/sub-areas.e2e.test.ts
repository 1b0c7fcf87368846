/**
 * Sub-areas and sub-IP end to end at 1440 px and 360 px: a tree built to 5 levels in the UI, a 6th level
 * refused with "level limit of 5" (also by the server), "delete sub-levels first" on a node with children,
 * IP segments added to the leaf (a bad line listed, nothing saved; then saved and counted on the tree).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubArea } from '@shared/schemas/sub-areas';
import { type ApiSession, VIEWPORTS, type ViewportName, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

const FARM = 'area-farm';
const NAMES = ['Hall A', 'Row 1', 'Rack 1', 'Shelf 1', 'Slot 1'];

let server: E2EServer;
let browser: Browser;
let api: ApiSession;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await api.post('/api/agent/createv2', { agentName: 'Area farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const listAreas = () => api.get<SubArea[]>('/api/minerv2/agentSubArea/list', { agentKey: FARM });

async function clearAreas(): Promise<void> {
  const areas = (await listAreas()).sort((a, b) => b.level - a.level);
  for (const a of areas) await api.post('/api/minerv2/agentSubArea/delete', { agentKey: FARM, id: a.id });
}

describe.each(['desktop', 'phone'] as ViewportName[])('sub-areas at %s', (viewport) => {
  let page: Page;
  let pageErrors: Error[];
  const width = VIEWPORTS[viewport].width;
  const dialog = () => page.getByRole('dialog');
  const toast = (text: string) => page.locator('.mantine-Notification-root', { hasText: text });

  beforeAll(async () => {
    await clearAreas();
    const context = await newContext(browser, server.url, { viewport });
    page = await context.newPage();
    pageErrors = trackPageErrors(page);
    await loginUi(page);
    await page.goto('/setting/agent/subArea');
    await page.getByText('No sub-areas yet').waitFor();
  }, 120_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('builds 5 levels and refuses a 6th with "level limit of 5"', async () => {
    await page.getByTestId('sub-area-add-top').click();
    await dialog().locator('[name="name"]').fill(NAMES[0]!);
    await dialog().getByTestId('sub-area-save').click();
    await page.getByRole('treeitem', { name: NAMES[0] }).waitFor();
    for (let i = 1; i < NAMES.length; i += 1) {
      await page.getByRole('button', { name: `Add a sub-level to ${NAMES[i - 1]}` }).click();
      await dialog().getByText(`(level ${i + 1})`).waitFor();
      await dialog().locator('[name="name"]').fill(NAMES[i]!);
      await dialog().getByTestId('sub-area-save').click();
      await page.getByRole('treeitem', { name: NAMES[i] }).waitFor();
    }
    await expect(page.getByRole('treeitem', { name: 'Slot 1' }).getAttribute('aria-level')).resolves.toBe('5');
    await page.getByRole('button', { name: 'Add a sub-level to Slot 1' }).click();
    await toast('level limit of 5').waitFor();
    expect(await dialog().count()).toBe(0);
    // The server holds the same rule.
    const slot = (await listAreas()).find((a) => a.name === 'Slot 1')!;
    await expect(api.post('/api/minerv2/agentSubArea/save', { agentKey: FARM, parentId: slot.id, name: 'Level 6' })).rejects.toThrow('level limit of 5');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });

  it('refuses to delete a node with sub-levels', async () => {
    const shelf = (await listAreas()).find((a) => a.name === 'Shelf 1')!;
    await page.getByTestId(`sub-area-menu-${shelf.id}`).click();
    await page.getByTestId(`sub-area-delete-${shelf.id}`).click();
    await toast('delete sub-levels first').waitFor();
    expect((await listAreas()).length).toBe(5);
  });

  it('assigns IP segments to the leaf: a bad line is listed, then saved and counted', async () => {
    await page.goto('/setting/agent/subIp');
    await page.getByTestId('data-table-empty').waitFor();
    await page.getByTestId('sub-ip-add').click();
    await page.getByTestId('sub-ip-area').click();
    await page.getByRole('option', { name: 'Hall A / Row 1 / Rack 1 / Shelf 1 / Slot 1' }).click();
    await page.getByTestId('sub-ip-segments').fill('10.20.0.0/24\n10.20.1.300');
    await page.getByTestId('sub-ip-save').click();
    await page.getByTestId('sub-ip-errors').getByText('Line 2: Enter a correct IP address').waitFor();
    await page.getByTestId('sub-ip-segments').fill('10.20.0.0/24\n10.20.1.1-10.20.1.50');
    await page.getByTestId('sub-ip-save').click();
    await page.getByTestId('data-table').getByText('10.20.1.1-10.20.1.50').waitFor();
    await page.getByTestId('data-table').getByText('10.20.0.0/24').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.goto('/setting/agent/subArea');
    await page.getByRole('treeitem', { name: 'Slot 1' }).getByText('2 IP segments').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
