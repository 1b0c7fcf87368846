/**
 * Customers and pool settings end to end: validation messages of the customer dialog in zh-CN and en-US; then a
 * customer, a sub-account whose observer link is tested against a real simulator fleet (failure, the "please
 * test" refusal, success) and a pool group built from both, all through the UI.
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

describe('customer dialog validation in two languages', () => {
  it('shows the zh-CN messages', async () => {
    const ctx = await newContext(browser, server.url, { locale: 'zh-CN' });
    const page = await ctx.newPage();
    await page.addInitScript(() => localStorage.setItem('hf.locale', 'zh-CN'));
    await loginUi(page);
    await page.goto('/setting/customer');
    await page.getByTestId('customer-new').click();
    const dialog = page.getByTestId('customer-form-dialog').getByRole('dialog');
    await dialog.waitFor();
    await expectWidth(page, dialog, 850);
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('请输入客户名称').waitFor();
    await dialog.getByText('请输入联系人').waitFor();
    await dialog.getByText('请输入电价').waitFor();
    await dialog.locator('[name="contacts.0.value"]').fill('123');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('请输入正确格式的手机号').waitFor();
    await ctx.close();
  }, 60_000);

  it('shows the en-US messages', async () => {
    const ctx = await newContext(browser, server.url, { locale: 'en-US' });
    const page = await ctx.newPage();
    await page.addInitScript(() => localStorage.setItem('hf.locale', 'en-US'));
    await loginUi(page);
    await page.goto('/setting/customer');
    await page.getByTestId('customer-new').click();
    const dialog = page.getByTestId('customer-form-dialog').getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('enter the customer name').waitFor();
    await dialog.locator('[name="contacts.0.value"]').fill('123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('enter a correctly formatted phone number').waitFor();
    await ctx.close();
  }, 60_000);
});

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
