/**
 * Issue #6 acceptance in the browser: every validation message of the customer, sub-account, pool-group and
 * whitelist dialogs (spec 2 §5, §8) triggered through the UI and read back exactly under its field, in zh-CN and
 * in en-US; and the chain customer → sub-account (observer test failure then success against a simulator
 * fleet's observer pages) → pool group → whitelist, saved and read back through the API. One server, one fleet,
 * one browser; one context (and one farm) per locale; the dialogs are driven without reloading the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Page as ApiPage } from '@shared/schemas/common';
import type { Customer } from '@shared/schemas/customer';
import type { PoolGroup, PoolWhitelistEntry, SubAccount } from '@shared/schemas/pool';
import { type Fleet, startFleet } from '@sim/fleet';
import enCustomers from '../../src/locales/en-US/customers.json';
import enPools from '../../src/locales/en-US/pools.json';
import zhCustomers from '../../src/locales/zh-CN/customers.json';
import zhPools from '../../src/locales/zh-CN/pools.json';
import { type ApiSession, launchBrowser, loginUi, newContext, setupAdmin, trackPageErrors } from '../support/e2e-browser';
import { type E2EServer, startServer } from '../support/e2e-server';

type Locale = 'zh-CN' | 'en-US';

/** The messages as the spec words them (en-US) and their zh-CN text, written out so a changed wording fails. */
const MESSAGES = {
  'en-US': {
    customerNameRequired: 'enter the customer name',
    contactNameRequired: 'enter the contact person',
    contactRequired: 'enter a contact (email or mobile)',
    email: 'enter a correctly formatted email address',
    mobile: 'enter a correctly formatted phone number',
    priceRequired: 'enter the electricity price',
    hostingType: 'choose the miner type',
    chooseCoin: 'please choose coin',
    hashRateRequired: 'enter a hashrate above 0',
    minerNum: 'the number of miners must be a whole number of at least 0',
    atLeastOne: 'at least one',
    accountNameRequired: 'enter the sub-account name',
    passwordRequired: 'Enter the password',
    poolNameRequired: 'choose the pool',
    observerUrlRequired: 'please enter observer link',
    invalidUrl: 'invalid url',
    observerUrlSensitive: 'observer link contains sensitive words',
    observerUrlHosted: 'hosted site link misconfigured: it needs the access_key and prefix parameters',
    observerTestRequired: 'please test observer link',
    connectFailed: 'connection failed, check configuration data',
    connectOk: /^connection successful: \d+(\.\d+)? [GTPE]H\/s$/,
    poolGroupNameRequired: 'enter the pool group name',
    customerRequired: 'choose the customer',
    poolUrlRequired: 'enter the pool address',
    subAccountRequired: 'choose the sub-account',
    poolUrlFormat: 'pool address format incorrect',
    poolUrlSensitive: 'pool address contains sensitive words',
    hostingDuplicate: 'the same type and hashrate cannot repeat',
    whitelistRepeat: 'a pool address appears twice in the entry',
    available: '10 available',
  },
  'zh-CN': {
    customerNameRequired: '请输入客户名称',
    contactNameRequired: '请输入联系人',
    contactRequired: '请填写联系方式（邮箱或手机号）',
    email: '请输入正确格式的邮箱地址',
    mobile: '请输入正确格式的手机号',
    priceRequired: '请输入电价',
    hostingType: '请选择机型',
    chooseCoin: '请选择币种',
    hashRateRequired: '请输入大于 0 的算力',
    minerNum: '矿机数量须为不小于 0 的整数',
    atLeastOne: '至少保留一条',
    accountNameRequired: '请输入子账户名称',
    passwordRequired: '请输入密码',
    poolNameRequired: '请选择矿池',
    observerUrlRequired: '请输入观察者链接',
    invalidUrl: '无效的链接',
    observerUrlSensitive: '观察者链接包含敏感词',
    observerUrlHosted: '托管站点链接配置错误：需包含 access_key 和 prefix 参数',
    observerTestRequired: '请测试观察者链接',
    connectFailed: '连接失败，请检查配置数据',
    connectOk: /^连接成功：\d+(\.\d+)? [GTPE]H\/s$/,
    poolGroupNameRequired: '请输入矿池组名称',
    customerRequired: '请选择客户',
    poolUrlRequired: '请输入矿池地址',
    subAccountRequired: '请选择子账户',
    poolUrlFormat: '矿池地址格式不正确',
    poolUrlSensitive: '矿池地址包含敏感词',
    hostingDuplicate: '相同机型和算力不能重复',
    whitelistRepeat: '同一条白名单中的矿池地址不能重复',
    available: '可用 10 台',
  },
} as const;

/** UI labels (not under test) come from the locale files. */
const LABELS = { 'en-US': { customers: enCustomers, pools: enPools }, 'zh-CN': { customers: zhCustomers, pools: zhPools } } as const;
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));

let server: E2EServer;
let browser: Browser;
let api: ApiSession;
let fleet: Fleet;

beforeAll(async () => {
  server = await startServer();
  api = await setupAdmin(server.url);
  fleet = await startFleet({ miners: 20, cidr: '127.44.0.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 11 });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await fleet?.close();
  await server?.close();
});

/** The message shown under a field (Mantine links it as `<input id>-error`); null when there is none. */
async function errorOf(input: Locator): Promise<string | null> {
  const id = await input.getAttribute('id');
  const error = input.page().locator(`[id="${id}-error"]`);
  return (await error.count()) > 0 ? ((await error.textContent()) ?? '') : null;
}

async function expectError(input: Locator, message: string | null): Promise<void> {
  await expect.poll(() => errorOf(input), { timeout: 10_000 }).toBe(message);
}

async function choose(page: Page, input: Locator, option: string | RegExp): Promise<void> {
  await input.click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).first().click();
}

for (const locale of ['zh-CN', 'en-US'] as const satisfies readonly Locale[]) {
  describe(`hosting validation (${locale})`, () => {
    const m = MESSAGES[locale];
    const L = LABELS[locale];
    const farm = locale === 'zh-CN' ? 'hv-zh' : 'hv-en';
    let page: Page;
    let pageErrors: Error[];
    let beta: Customer;

    beforeAll(async () => {
      await api.post('/api/agent/createv2', { agentName: `Hosting ${locale}`, agentKey: farm, noticeEmails: '', agentAddr: '', selfManaged: false });
      // A second customer, for "changing the customer resets the rows".
      beta = await api.post<Customer>('/api/customer/save', {
        agentKey: farm,
        name: 'Beta Mining',
        contract: 'Wang Fang',
        email: 'beta@example.com',
        electricUnit: 'USD',
        electricPrice: '0.0525',
        hostingResult: JSON.stringify([{ type: 'Whatsminer M60S', coinType: 'BTC', hashRate: 170, hashRateUnit: 'TH/s', minerModel: '', minerNum: 3 }]),
      });
      const ctx = await newContext(browser, server.url, { locale });
      await ctx.addInitScript(
        ([loc, key]) => {
          localStorage.setItem('hf.locale', loc);
          sessionStorage.setItem('hf.agentKey', key);
        },
        [locale, farm] as const,
      );
      page = await ctx.newPage();
      pageErrors = trackPageErrors(page);
      await loginUi(page);
    }, 60_000);

    afterAll(async () => {
      await page?.context().close();
    });

    it('customer dialog: every rule\'s message, ¥/kwh and $/kwh, model change, at least one row; then saves', async () => {
      await page.goto('/setting/customer');
      await page.getByTestId('customer-new').click();
      const dialog = page.getByTestId('customer-form-dialog').getByRole('dialog');
      await dialog.waitFor();
      const save = dialog.getByRole('button', { name: L.customers.actions.save, exact: true });
      const contact0 = dialog.locator('[name="contacts.0.value"]');
      const price = dialog.locator('[name="electricPrice"]');
      const type0 = dialog.getByTestId('customer-hosting-type-0');
      const coin0 = dialog.getByTestId('customer-hosting-coin-0');
      const hash0 = dialog.locator('[name="hostingResult.0.hashRate"]');
      const num0 = dialog.locator('[name="hostingResult.0.minerNum"]');

      await save.click();
      await expectError(dialog.locator('[name="name"]'), m.customerNameRequired);
      await expectError(dialog.locator('[name="contract"]'), m.contactNameRequired);
      await expectError(contact0, m.contactRequired);
      await expectError(price, m.priceRequired);
      await expectError(type0, m.hostingType);
      await expectError(coin0, m.chooseCoin);
      await expectError(hash0, m.hashRateRequired);
      await expectError(num0, m.minerNum);

      // Mobile: 7 to 11 digits, area code 86 by default.
      expect(await dialog.getByTestId('customer-area-code-0').inputValue()).toContain('86');
      for (const bad of ['123456', '123456789012', '1380013800a']) {
        await contact0.fill(bad);
        await save.click();
        await expectError(contact0, m.mobile);
      }
      await contact0.fill('1380013');
      await save.click();
      await expectError(contact0, null);
      // E-mail pattern.
      await choose(page, dialog.getByTestId('customer-contact-kind-0'), L.customers.form.email);
      await contact0.fill('ops@acme');
      await save.click();
      await expectError(contact0, m.email);
      await contact0.fill('ops@acme.example');
      // The optional second contact follows the same rules.
      await dialog.getByRole('button', { name: L.customers.form.addContact }).click();
      const contact1 = dialog.locator('[name="contacts.1.value"]');
      await contact1.fill('nope');
      await save.click();
      await expectError(contact1, m.email);
      await choose(page, dialog.getByTestId('customer-contact-kind-1'), L.customers.form.mobile);
      await contact1.fill('12');
      await save.click();
      await expectError(contact1, m.mobile);
      await contact1.fill('9161234567');
      await choose(page, dialog.getByTestId('customer-area-code-1'), /^\+7 /);
      await save.click();
      await expectError(contact1, null);

      // Electricity price: ¥/kwh for CNY with 2 decimals, $/kwh for USD with 4.
      const unit = dialog.getByTestId('customer-price-unit');
      expect(await unit.textContent()).toBe('¥/kwh');
      await choose(page, dialog.getByTestId('customer-currency'), 'USD');
      expect(await unit.textContent()).toBe('$/kwh');
      await price.fill('0.0525');
      expect(await price.inputValue()).toBe('0.0525');
      await choose(page, dialog.getByTestId('customer-currency'), 'CNY');
      expect(await unit.textContent()).toBe('¥/kwh');
      await expect.poll(() => price.inputValue()).toBe('0.05');
      await save.click();
      await expectError(price, null);

      // Changing a row's model clears its coin and hashrate.
      await choose(page, type0, 'Antminer S21');
      await choose(page, coin0, 'BTC');
      await hash0.fill('200');
      await choose(page, type0, 'Antminer S19j Pro');
      expect(await coin0.inputValue()).toBe('');
      expect(await hash0.inputValue()).toBe('');
      await choose(page, type0, 'Antminer S21');
      await choose(page, coin0, 'BTC');
      await hash0.fill('200');
      // minerNum takes whole numbers ≥ 0 only: '-' and '.' are not typed.
      await num0.pressSequentially('-1.5');
      expect(await num0.inputValue()).toBe('15');
      await num0.fill('10');
      await save.click();
      await expectError(num0, null);

      // At least one hosting row remains.
      const removeRow = (n: number) => dialog.getByRole('button', { name: fill(L.customers.form.removeRow, { n }), exact: true });
      await removeRow(1).click();
      await dialog.getByText(m.atLeastOne, { exact: true }).waitFor();
      expect(await dialog.getByTestId('customer-hosting-0').count()).toBe(1);

      await dialog.getByRole('button', { name: L.customers.form.addRow }).click();
      await choose(page, dialog.getByTestId('customer-hosting-type-1'), 'Antminer S19j Pro');
      await choose(page, dialog.getByTestId('customer-hosting-coin-1'), 'BTC');
      await dialog.locator('[name="hostingResult.1.hashRate"]').fill('100');
      await dialog.locator('[name="hostingResult.1.minerNum"]').fill('5');
      await dialog.locator('[name="name"]').fill('Acme Hosting');
      await dialog.locator('[name="contract"]').fill('Li Wei');
      await save.click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('data-table').getByText('Acme Hosting').waitFor();
      await page.getByTestId('data-table').getByText('0.05 ¥/kwh').waitFor();
      await page.getByTestId('data-table').getByText('0.0525 $/kwh').waitFor();
      const list = await api.get<ApiPage<Customer>>('/api/customer/list', { agentKey: farm });
      expect(list.list.find((c) => c.name === 'Acme Hosting')).toMatchObject({
        contract: 'Li Wei',
        email: 'ops@acme.example',
        mobile: '9161234567',
        areaCode: '7',
        electricUnit: 'CNY',
        electricPrice: '0.05',
        hostingResult: [
          { type: 'Antminer S21', coinType: 'BTC', hashRate: 200, minerNum: 10 },
          { type: 'Antminer S19j Pro', coinType: 'BTC', hashRate: 100, minerNum: 5 },
        ],
      });
    }, 120_000);

    it('sub-account dialog: every message, observer test failure and success against the simulator; then saves', async () => {
      await page.goto('/setting/agent/pool/subAccounts');
      await page.getByTestId('sub-account-new').click();
      const dialog = page.getByTestId('sub-account-dialog').getByRole('dialog');
      await dialog.waitFor();
      const save = dialog.getByRole('button', { name: L.pools.actions.save, exact: true });
      const test = dialog.getByTestId('sub-account-test');
      const coin = dialog.getByTestId('sub-account-coin');
      const url = dialog.locator('[name="observerUrl"]');
      const result = dialog.getByTestId('sub-account-test-result');

      // The test needs the coin first, then the link.
      await test.click();
      await expectError(coin, m.chooseCoin);
      await expectError(url, null);
      await save.click();
      await expectError(dialog.locator('[name="accountName"]'), m.accountNameRequired);
      await expectError(dialog.locator('[name="password"]'), m.passwordRequired);
      await expectError(dialog.getByTestId('sub-account-pool'), m.poolNameRequired);
      await expectError(coin, m.chooseCoin);
      await expectError(url, m.observerUrlRequired);

      await dialog.locator('[name="accountName"]').fill('hfarm01');
      await dialog.locator('[name="password"]').fill('pool-secret');
      await choose(page, dialog.getByTestId('sub-account-pool'), 'Hashfield Pool');
      await choose(page, coin, 'BTC');
      await expectError(coin, null);
      await url.fill('');
      await test.click();
      await expectError(url, m.observerUrlRequired);
      const refused: [string, string][] = [
        ['observer link', m.invalidUrl],
        ['ftp://pool.example/observer', m.invalidUrl],
        ['https://observer.gov.example/hfarm01', m.observerUrlSensitive],
        ['https://pool.example/DHS/hfarm01', m.observerUrlSensitive],
        ['https://observer.hashfield-hosting.com/watch?access_key=abc', m.observerUrlHosted],
        ['https://farm.hosted-miners.example/watch?prefix=acme', m.observerUrlHosted],
      ];
      for (const [link, message] of refused) {
        await url.fill(link);
        await test.click();
        await expectError(url, message);
      }
      expect(await result.count()).toBe(0);

      // A link the pool does not know: status 1.
      await url.fill(`http://127.0.0.1:${fleet.ports.control}/observer/nobody?coin=BTC`);
      await test.click();
      await expect.poll(() => result.textContent()).toBe(m.connectFailed);
      await save.click();
      await expectError(url, m.observerTestRequired);
      // A known account: status 0 with hashP and unit; then it saves.
      await url.fill(`http://127.0.0.1:${fleet.ports.control}/observer/hfarm01?coin=BTC`);
      await test.click();
      await expect.poll(() => result.textContent(), { timeout: 15_000 }).toMatch(m.connectOk);
      await expectError(url, null);
      await save.click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('data-table').getByText('hfarm01', { exact: true }).waitFor();
      const subs = await api.get<ApiPage<SubAccount>>('/api/subAccountV2/pagelist', { agentKey: farm });
      expect(subs.list).toHaveLength(1);
      expect(subs.list[0]).toMatchObject({ accountName: 'hfarm01', poolName: 'Hashfield Pool', coinType: 'BTC', hasPassword: true });
    }, 120_000);

    it('pool group dialog: every message, duplicate pair cleared, minerNum capped, customer change resets rows; then saves trimmed', async () => {
      await page.goto('/setting/agent/pool');
      await page.getByTestId('pool-group-new').click();
      const dialog = page.getByTestId('pool-group-dialog').getByRole('dialog');
      await dialog.waitFor();
      const save = dialog.getByRole('button', { name: L.pools.actions.save, exact: true });
      const pool = (n: number) => dialog.locator(`[name="pool${n}Url"]`);
      const customer = dialog.getByTestId('pool-group-customer');
      const row = (i: number) => dialog.getByTestId(`pool-group-row-${i}`);
      const rows = dialog.locator('[data-testid^="pool-group-hosting-"]');

      await save.click();
      await expectError(dialog.locator('[name="name"]'), m.poolGroupNameRequired);
      await expectError(customer, m.customerRequired);
      await expectError(pool(1), m.poolUrlRequired);
      await expectError(dialog.getByTestId('pool-group-sub-1'), m.subAccountRequired);

      await dialog.locator('[name="name"]').fill('Group A');
      await pool(1).fill('http://btc.pool.example:3333');
      await pool(2).fill('stratum+tcp://btc.gov.example:3333');
      await pool(3).fill('stratum+tcp://dhs.example:443');
      await save.click();
      await expectError(pool(1), m.poolUrlFormat);
      await expectError(pool(2), m.poolUrlSensitive);
      await expectError(pool(3), m.poolUrlSensitive);
      await pool(1).fill('btc.pool.example:3333');
      await pool(3).fill('stratum+tcp://');
      await save.click();
      await expectError(pool(1), m.poolUrlFormat);
      await expectError(pool(3), m.poolUrlFormat);

      // Rows come from the customer's hosting: a repeated type + hashrate pair is cleared.
      await choose(page, customer, 'Acme Hosting');
      await choose(page, row(0), /Antminer S21/);
      await dialog.getByRole('button', { name: L.pools.group.addRow }).click();
      await choose(page, row(1), /Antminer S21/);
      await expectError(row(1), m.hostingDuplicate);
      expect(await row(1).inputValue()).toBe('');
      await choose(page, row(1), /Antminer S19j Pro/);
      await expectError(row(1), null);
      // Changing the customer resets the rows to one empty row.
      await choose(page, customer, beta.name);
      await expect.poll(() => rows.count()).toBe(1);
      expect(await row(0).inputValue()).toBe('');
      await choose(page, customer, 'Acme Hosting');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await row(0).inputValue()).toBe('');
      // minerNum is capped by what the customer has available.
      await choose(page, row(0), /Antminer S21/);
      const num0 = dialog.locator('[name="poolGroupHosting.0.minerNum"]');
      await dialog.getByText(m.available, { exact: true }).waitFor();
      await num0.fill('99');
      await num0.press('Tab');
      await expect.poll(() => num0.inputValue()).toBe('10');
      // At least one row remains.
      await dialog.getByRole('button', { name: fill(L.pools.group.removeRow, { n: 1 }), exact: true }).click();
      await dialog.getByText(m.atLeastOne, { exact: true }).waitFor();
      expect(await rows.count()).toBe(1);

      // Pool 2's sub-account needs pool 2's address.
      await choose(page, dialog.getByTestId('pool-group-sub-1'), /hfarm01/);
      await pool(2).fill('');
      await pool(3).fill('');
      await choose(page, dialog.getByTestId('pool-group-sub-2'), /hfarm01/);
      await save.click();
      await expectError(pool(2), m.poolUrlRequired);
      await expectError(pool(1), m.poolUrlFormat);

      // Saved with the addresses trimmed.
      await pool(1).fill('  stratum+tcp://btc.hashfield-pool.com:3333 ');
      await pool(2).fill(' stratum+ssl://btc-backup.hashfield-pool.com:443');
      await save.click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('data-table').getByText('Group A', { exact: true }).waitFor();
      const groups = await api.get<PoolGroup[]>('/api/poolgroup/list', { agentKey: farm });
      expect(groups).toHaveLength(1);
      expect(groups[0]).toMatchObject({
        name: 'Group A',
        customerName: 'Acme Hosting',
        pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
        pool2Url: 'stratum+ssl://btc-backup.hashfield-pool.com:443',
        pool3Url: '',
        pool1User: 'hfarm01',
        poolGroupHosting: [{ type: 'Antminer S21', hashRate: 200, minerNum: 10 }],
      });
    }, 120_000);

    it('whitelist dialog: up to 3 pools, every message; then saves', async () => {
      await page.goto('/setting/agent/pool/whitelist');
      await page.getByTestId('whitelist-new').click();
      const dialog = page.getByTestId('whitelist-dialog').getByRole('dialog');
      await dialog.waitFor();
      const save = dialog.getByRole('button', { name: L.pools.actions.save, exact: true });
      const url = (i: number) => dialog.locator(`[name="urls.${i}"]`);
      expect(await dialog.locator('input').count()).toBe(3);

      await save.click();
      await expectError(url(0), m.poolUrlRequired);
      await url(0).fill('http://a.example:1');
      await url(1).fill('stratum+tcp://a.gov:1');
      await url(2).fill('stratum+tcp://b.dhs.example:1');
      await save.click();
      await expectError(url(0), m.poolUrlFormat);
      await expectError(url(1), m.poolUrlSensitive);
      await expectError(url(2), m.poolUrlSensitive);
      await url(0).fill('stratum+tcp://btc.hashfield-pool.com:3333');
      await url(1).fill('stratum+ssl://btc-backup.hashfield-pool.com:443');
      await url(2).fill(' STRATUM+TCP://BTC.HASHFIELD-POOL.COM:3333');
      await save.click();
      await expectError(url(2), m.whitelistRepeat);
      await url(2).fill('stratum2+tcp://v2.hashfield-pool.com:3336 ');
      await save.click();
      await dialog.waitFor({ state: 'detached' });
      const entries = await api.get<PoolWhitelistEntry[]>('/api/poolWhitelist/list', { agentKey: farm });
      expect(entries.map((e) => e.poolUrls)).toEqual(['stratum+tcp://btc.hashfield-pool.com:3333,stratum+ssl://btc-backup.hashfield-pool.com:443,stratum2+tcp://v2.hashfield-pool.com:3336']);
      expect(pageErrors).toEqual([]);
    }, 60_000);
  });
}
