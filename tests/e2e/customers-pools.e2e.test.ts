/**
 * Customers and pool settings end to end: a customer, a sub-account whose observer link is tested against a real
 * simulator fleet (failure, the "please test" refusal, success) and a pool group built from both, all through the
 * UI, with the dialog widths of spec 2 §9. Every validation message, in zh-CN and en-US, is in
 * hosting-validation.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Page as ApiPage } from '@shared/schemas/common';
import type { Customer } from '@shared/schemas/customer';
import type { PoolGroup, SubAccount } from '@shared/schemas/pool';
import { type Fleet, startFleet } from '@sim/fleet';
import { startServer, type E2EServer } from '../support/e2e-server';
import { ApiSession, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';

const FARM = 'cp-farm';

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let fleet: Fleet;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  await api.post('/api/agent/createv2', { agentName: 'Hosting farm', agentKey: FARM, noticeEmails: '', agentAddr: '', selfManaged: false });
  fleet = await startFleet({ miners: 20, cidr: '127.41.0.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 7 });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
  await server?.close();
});

/** The dialog's width (spec 2 §9: customer 850, pool 810, sub-account 720). */
async function expectWidth(page: Page, dialog: ReturnType<Page['locator']>, width: number): Promise<void> {
  const box = await dialog.boundingBox();
  expect(page.viewportSize()?.width ?? 0).toBeGreaterThan(width);
  expect(box?.width).toBe(width);
}

/** Picks an option of a Mantine Select inside `scope`. */
async function choose(page: Page, input: ReturnType<Page['locator']>, option: string | RegExp): Promise<void> {
  await input.click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('customer → sub-account → pool group', () => {
  let page: Page;
  let pageErrors: Error[];

  beforeAll(async () => {
    const ctx = await newContext(browser, server.url, { locale: 'en-US' });
    page = await ctx.newPage();
    await page.addInitScript(() => localStorage.setItem('hf.locale', 'en-US'));
    pageErrors = trackPageErrors(page);
    await loginUi(page);
  }, 60_000);

  afterAll(async () => {
    await page?.context().close();
  });

  it('adds a customer with a hosting row', async () => {
    await page.goto('/setting/customer');
    await page.getByTestId('customer-new').click();
    const dialog = page.getByTestId('customer-form-dialog').getByRole('dialog');
    await dialog.waitFor();
    await expectWidth(page, dialog, 850);
    await dialog.locator('[name="name"]').fill('Acme Hosting');
    await dialog.locator('[name="contract"]').fill('Li Wei');
    await dialog.locator('[name="contacts.0.value"]').fill('13800138000');
    await dialog.getByLabel('Electricity price').fill('0.35');
    await choose(page, dialog.getByTestId('customer-hosting-type-0'), 'Antminer S21');
    await choose(page, dialog.getByTestId('customer-hosting-coin-0'), 'BTC');
    await dialog.locator('[name="hostingResult.0.hashRate"]').fill('200');
    await dialog.locator('[name="hostingResult.0.minerNum"]').fill('10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('data-table').getByText('Acme Hosting').waitFor();
    const list = await api.get<ApiPage<Customer>>('/api/customer/list', { agentKey: FARM });
    expect(list.list[0]).toMatchObject({ name: 'Acme Hosting', mobile: '13800138000', areaCode: '86', electricUnit: 'CNY', electricPrice: '0.35' });
  }, 60_000);

  it('adds a sub-account only after a successful observer test', async () => {
    await page.goto('/setting/agent/pool/subAccounts');
    await page.getByTestId('sub-account-new').click();
    const dialog = page.getByTestId('sub-account-dialog').getByRole('dialog');
    await dialog.waitFor();
    await expectWidth(page, dialog, 720);
    await dialog.locator('[name="accountName"]').fill('hfarm01');
    await dialog.locator('[name="password"]').fill('pool-secret');
    await choose(page, dialog.getByTestId('sub-account-pool'), 'Hashfield Pool');
    await dialog.getByTestId('sub-account-test').click();
    await dialog.getByText('please choose coin').waitFor();
    await choose(page, dialog.getByTestId('sub-account-coin'), 'BTC');
    const url = dialog.locator('[name="observerUrl"]');
    await url.fill(`http://127.0.0.1:${fleet.ports.control}/observer/nobody?coin=BTC`);
    await dialog.getByTestId('sub-account-test').click();
    await dialog.getByTestId('sub-account-test-result').getByText('connection failed, check configuration data').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('please test observer link').waitFor();
    await url.fill(`http://127.0.0.1:${fleet.ports.control}/observer/hfarm01?coin=BTC`);
    await dialog.getByTestId('sub-account-test').click();
    await dialog.getByTestId('sub-account-test-result').getByText(/connection successful: [\d.]+ [KMGTPE]?H\/s/).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('data-table').getByText('hfarm01', { exact: true }).waitFor();
    const subs = await api.get<ApiPage<SubAccount>>('/api/subAccountV2/pagelist', { agentKey: FARM });
    expect(subs.list[0]).toMatchObject({ accountName: 'hfarm01', hasPassword: true });
  }, 60_000);

  it('adds a pool group from the customer and the sub-account', async () => {
    await page.goto('/setting/agent/pool');
    await page.getByTestId('pool-group-new').click();
    const dialog = page.getByTestId('pool-group-dialog').getByRole('dialog');
    await dialog.waitFor();
    await expectWidth(page, dialog, 810);
    await dialog.locator('[name="name"]').fill('Group A');
    await choose(page, dialog.getByTestId('pool-group-customer'), 'Acme Hosting');
    await dialog.locator('[name="pool1Url"]').fill('http://btc.pool.example:3333');
    await choose(page, dialog.getByTestId('pool-group-sub-1'), /hfarm01/);
    await choose(page, dialog.getByTestId('pool-group-row-0'), /Antminer S21/);
    await dialog.locator('[name="poolGroupHosting.0.minerNum"]').fill('4');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('pool address format incorrect').waitFor();
    await dialog.locator('[name="pool1Url"]').fill(' stratum+tcp://btc.hashfield-pool.com:3333 ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('data-table').getByText('Group A').waitFor();
    const groups = await api.get<PoolGroup[]>('/api/poolgroup/list', { agentKey: FARM });
    expect(groups[0]).toMatchObject({ name: 'Group A', pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333', pool1User: 'hfarm01' });
    expect(groups[0]?.poolGroupHosting[0]).toMatchObject({ type: 'Antminer S21', minerNum: 4 });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

describe('the dialogs on a 360 px phone', () => {
  it('open full screen with every input usable and nothing wider than the screen', async () => {
    const ctx = await newContext(browser, server.url, { locale: 'en-US', viewport: 'phone' });
    const page = await ctx.newPage();
    await page.addInitScript(() => localStorage.setItem('hf.locale', 'en-US'));
    await loginUi(page);
    // A phone lands on the technician's home (a full page load of /field) first.
    await page.waitForURL('**/field');
    await page.waitForLoadState('load');
    const fits = async (dialog: ReturnType<Page['locator']>) => {
      const box = await dialog.boundingBox();
      expect(box?.width).toBe(360);
      // No field squeezed below a usable width, none reaching past the screen's edge.
      for (const input of await dialog.locator('input:visible').all()) {
        const b = await input.boundingBox();
        expect(b?.width ?? 0, (await input.getAttribute('name')) ?? '').toBeGreaterThanOrEqual(60);
        expect((b?.x ?? 0) + (b?.width ?? 0)).toBeLessThanOrEqual(360);
      }
    };
    await page.goto('/setting/customer');
    await page.getByTestId('customer-new').click();
    const customer = page.getByTestId('customer-form-dialog').getByRole('dialog');
    await customer.waitFor();
    await customer.getByRole('button', { name: 'Add a second contact' }).click();
    await choose(page, customer.getByTestId('customer-contact-kind-1'), 'Mobile');
    await fits(customer);
    await page.keyboard.press('Escape');
    await customer.waitFor({ state: 'detached' });
    await page.goto('/setting/agent/pool');
    await page.getByTestId('pool-group-new').click();
    const group = page.getByTestId('pool-group-dialog').getByRole('dialog');
    await group.waitFor();
    await choose(page, group.getByTestId('pool-group-customer'), 'Acme Hosting');
    await group.getByTestId('pool-group-row-0').waitFor();
    await fits(group);
    await ctx.close();
  }, 60_000);
});
