/**
 * Issue #6 acceptance, server side: every rule of spec 2 §5 for customers, sub-accounts, pool groups and the pool
 * whitelist, sent as bad input through app.inject, in zh-CN and en-US. Each answer must name the field with the
 * localised message of the rule (and say it in msg), and nothing may be saved: the four tables (and the
 * remembered observer tests) are compared row by row before and after, for creates and for edits of rows that
 * exist. customers-pools.test.ts holds the happy paths and the en-US wording of the common cases; the cases
 * marked `en` here are only in this file, so they run in en-US too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '@shared/schemas/customer';
import type { PoolGroup, PoolWhitelistEntry, SubAccount } from '@shared/schemas/pool';
import enErrors from '../../src/locales/en-US/errors.json';
import zhErrors from '../../src/locales/zh-CN/errors.json';
import { GENERIC_MESSAGES } from '../../src/server/validation-issue';
import { Client, type TestApp, body, createFarm, createTestApp, setupAdmin } from './harness';

type Locale = 'zh-CN' | 'en-US';
const MESSAGES: Record<Locale, Record<string, string>> = { 'zh-CN': zhErrors.validation, 'en-US': enErrors.validation };
const KEY = 'hb-a';
const OTHER = 'hb-b';
const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** One bad input: where it goes, the field named in the answer, the rule's message key, the status. */
interface Case {
  name: string;
  method?: 'GET' | 'POST';
  url: string;
  payload: Record<string, unknown>;
  field: string;
  key: string;
  status?: number;
  /** Not covered in en-US by customers-pools.test.ts: run in en-US as well. */
  en?: boolean;
}

const TABLES = ['customers', 'sub_accounts', 'pool_groups', 'pool_whitelist', 'observer_tests'] as const;

const row = (extra: Record<string, unknown> = {}) => ({ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'Antminer S21', minerNum: 10, ...extra });
const rows = (r: unknown[]) => JSON.stringify(r);

describe('hosting: every rule\'s bad input is refused with its localised message and saves nothing', () => {
  let t: TestApp;
  let admin: Client;
  const clients = {} as Record<Locale, Client>;
  let customer: Customer;
  let otherCustomer: Customer;
  let sub: SubAccount;
  let otherSub: SubAccount;
  let group: PoolGroup;
  let entry: PoolWhitelistEntry;
  let otherEntry: PoolWhitelistEntry;
  const cases: Case[] = [];

  const saved = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
    const res = await admin.post(url, payload);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    return body<T>(res).data;
  };

  beforeAll(async () => {
    t = await createTestApp({ secretKey: SECRET_KEY });
    admin = await setupAdmin(t.app);
    await createFarm(admin, KEY);
    await createFarm(admin, OTHER);
    for (const locale of ['zh-CN', 'en-US'] as const) {
      clients[locale] = new Client(t.app, locale);
      clients[locale].cookie = admin.cookie;
    }
    const goodCustomer = { agentKey: KEY, name: 'Acme', contract: 'Li Wei', email: 'ops@acme.example', mobile: '', areaCode: '', electricUnit: 'CNY', electricPrice: '0.35' };
    customer = await saved('/api/customer/save', { ...goodCustomer, hostingResult: rows([row(), row({ type: 'Antminer S19j Pro', hashRate: 100, minerNum: 5 })]) });
    otherCustomer = await saved('/api/customer/save', { ...goodCustomer, agentKey: OTHER, name: 'Other farm Co', hostingResult: rows([row()]) });
    // "Private pool" is exempt from the observer test: no fleet needed here.
    const goodSub = { agentKey: KEY, accountName: 'own', password: 'pool-pass-1', poolName: 'Private pool', coinType: 'BTC', observerUrl: 'http://10.0.0.9/observer/own' };
    sub = await saved('/api/subAccountV2/save', goodSub);
    otherSub = await saved('/api/subAccountV2/save', { ...goodSub, agentKey: OTHER });
    const goodGroup = {
      agentKey: KEY,
      name: 'Group A',
      customerId: customer.id,
      pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
      subAccount1Id: sub.id,
      poolGroupHosting: rows([row({ minerNum: 6 })]),
    };
    group = await saved('/api/poolgroup/save', goodGroup);
    entry = await saved('/api/poolWhitelist/save', { agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1' });
    otherEntry = await saved('/api/poolWhitelist/save', { agentKey: OTHER, poolUrls: 'stratum+tcp://a.example:1' });

    // ─── Customers: each case as a create and as an edit of `customer` ───
    const c = (extra: Record<string, unknown>) => ({ ...goodCustomer, hostingResult: rows([row()]), ...extra });
    const customerCases: Omit<Case, 'url'>[] = [
      { name: 'name missing', payload: c({ name: '' }), field: 'name', key: 'customerNameRequired' },
      { name: 'name blank', payload: c({ name: '   ' }), field: 'name', key: 'customerNameRequired', en: true },
      { name: 'name over 50', payload: c({ name: 'x'.repeat(51) }), field: 'name', key: 'customerNameMax' },
      { name: 'contact person missing', payload: c({ contract: ' ' }), field: 'contract', key: 'contactNameRequired' },
      { name: 'contact person over 50', payload: c({ contract: 'y'.repeat(51) }), field: 'contract', key: 'contactNameMax' },
      { name: 'no contact', payload: c({ email: '', mobile: '' }), field: 'email', key: 'contactRequired' },
      { name: 'bad e-mail', payload: c({ email: 'not-an-email' }), field: 'email', key: 'email' },
      { name: 'bad second e-mail', payload: c({ email: 'a@b.example,nope@' }), field: 'email', key: 'email', en: true },
      { name: 'mobile of 6 digits', payload: c({ email: '', mobile: '123456' }), field: 'mobile', key: 'mobile' },
      { name: 'mobile of 12 digits', payload: c({ email: '', mobile: '123456789012' }), field: 'mobile', key: 'mobile' },
      { name: 'bad second mobile', payload: c({ email: '', mobile: '13800138000,12ab5678', areaCode: '86,86' }), field: 'mobile', key: 'mobile', en: true },
      { name: 'three contacts', payload: c({ email: 'a@b.example,c@d.example', mobile: '13800138000' }), field: 'mobile', key: 'contactMax' },
      { name: 'area codes not aligned with the mobiles', payload: c({ email: '', mobile: '13800138000', areaCode: '86,7' }), field: 'areaCode', key: 'areaCode', en: true },
      { name: 'area code not a code', payload: c({ email: '', mobile: '13800138000', areaCode: '+86x' }), field: 'areaCode', key: 'areaCode', en: true },
      { name: 'price missing', payload: c({ electricPrice: '' }), field: 'electricPrice', key: 'priceRequired' },
      { name: 'price not a number', payload: c({ electricPrice: 'abc' }), field: 'electricPrice', key: 'priceRequired', en: true },
      { name: 'price negative', payload: c({ electricPrice: '-1' }), field: 'electricPrice', key: 'priceRequired', en: true },
      { name: 'CNY under 0.01', payload: c({ electricPrice: '0.001' }), field: 'electricPrice', key: 'priceMinCny' },
      { name: 'CNY with 3 decimals', payload: c({ electricPrice: '0.123' }), field: 'electricPrice', key: 'priceDecimalsCny' },
      { name: 'USD under 0.0001', payload: c({ electricUnit: 'USD', electricPrice: '0.00001' }), field: 'electricPrice', key: 'priceMinUsd' },
      { name: 'USD with 5 decimals', payload: c({ electricUnit: 'USD', electricPrice: '0.12345' }), field: 'electricPrice', key: 'priceDecimalsUsd' },
      { name: 'unknown currency', payload: c({ electricUnit: 'EUR' }), field: 'electricUnit', key: 'currency' },
      { name: 'currency missing', payload: c({ electricUnit: '' }), field: 'electricUnit', key: 'currency', en: true },
      { name: 'no hosting row', payload: c({ hostingResult: '[]' }), field: 'hostingResult', key: 'hostingAtLeastOne' },
      { name: 'hosting rows blank', payload: c({ hostingResult: '' }), field: 'hostingResult', key: 'hostingAtLeastOne', en: true },
      { name: 'hosting rows not JSON', payload: c({ hostingResult: '[{' }), field: 'hostingResult', key: 'invalid', en: true },
      { name: 'more than 50 hosting rows', payload: c({ hostingResult: rows(Array.from({ length: 51 }, () => row())) }), field: 'hostingResult', key: 'invalid', en: true },
      { name: 'row without type', payload: c({ hostingResult: rows([row({ type: '' })]) }), field: 'hostingResult.0.type', key: 'hostingType' },
      { name: 'row without coin', payload: c({ hostingResult: rows([row({ coinType: '' })]) }), field: 'hostingResult.0.coinType', key: 'chooseCoin' },
      { name: 'row without hashrate', payload: c({ hostingResult: rows([row({ hashRate: '' })]) }), field: 'hostingResult.0.hashRate', key: 'hashRateRequired' },
      { name: 'row with hashrate 0', payload: c({ hostingResult: rows([row(), row({ hashRate: 0 })]) }), field: 'hostingResult.1.hashRate', key: 'hashRateRequired', en: true },
      { name: 'row with an unknown hashrate unit', payload: c({ hostingResult: rows([row({ hashRateUnit: 'furlong/s' })]) }), field: 'hostingResult.0.hashRateUnit', key: 'invalid', en: true },
      { name: 'row without minerNum', payload: c({ hostingResult: rows([row({ minerNum: '' })]) }), field: 'hostingResult.0.minerNum', key: 'minerNum', en: true },
      { name: 'row with minerNum -1', payload: c({ hostingResult: rows([row({ minerNum: -1 })]) }), field: 'hostingResult.0.minerNum', key: 'minerNum' },
      { name: 'row with minerNum 1.5', payload: c({ hostingResult: rows([row({ minerNum: 1.5 })]) }), field: 'hostingResult.0.minerNum', key: 'minerNum' },
    ];
    for (const k of customerCases) {
      cases.push({ ...k, name: `customer create: ${k.name}`, url: '/api/customer/save' });
      cases.push({ ...k, name: `customer edit: ${k.name}`, url: '/api/customer/save', payload: { ...k.payload, id: customer.id }, en: true });
    }
    cases.push(
      { name: 'customer edit: a customer of another farm', url: '/api/customer/save', payload: c({ id: otherCustomer.id, name: 'Taken over' }), field: '_', key: '', status: 404, en: true },
      { name: 'customer edit: not an id', url: '/api/customer/save', payload: c({ id: 'nope' }), field: 'id', key: 'id', en: true },
      { name: 'customer delete: not an id', url: '/api/customer/delete', payload: { agentKey: KEY, id: 'nope' }, field: 'id', key: 'id', en: true },
      { name: 'customer delete: one of another farm', url: '/api/customer/delete', payload: { agentKey: KEY, id: otherCustomer.id }, field: '_', key: '', status: 404, en: true },
      { name: 'customer delete: used by a pool group', url: '/api/customer/delete', payload: { agentKey: KEY, id: customer.id }, field: 'id', key: 'customerInUse', status: 409, en: true },
    );

    // ─── Sub-accounts ───
    const s = (extra: Record<string, unknown>) => ({ ...goodSub, poolName: 'AntPool', observerUrl: 'http://127.0.0.1:9/observer/untested?coin=BTC', ...extra });
    const subCases: Omit<Case, 'url'>[] = [
      { name: 'account name missing', payload: s({ accountName: '' }), field: 'accountName', key: 'accountNameRequired' },
      { name: 'account name over 100', payload: s({ accountName: 'a'.repeat(101) }), field: 'accountName', key: 'accountNameRequired', en: true },
      { name: 'password over 200', payload: s({ password: 'p'.repeat(201) }), field: 'password', key: 'passwordMax', en: true },
      { name: 'pool missing', payload: s({ poolName: '' }), field: 'poolName', key: 'poolNameRequired' },
      { name: 'coin missing', payload: s({ coinType: '' }), field: 'coinType', key: 'chooseCoin' },
      { name: 'observer link missing', payload: s({ observerUrl: '' }), field: 'observerUrl', key: 'observerUrlRequired' },
      { name: 'observer link not a URL', payload: s({ observerUrl: 'nope' }), field: 'observerUrl', key: 'invalidUrl' },
      { name: 'observer link not http(s)', payload: s({ observerUrl: 'ftp://pool.example/x' }), field: 'observerUrl', key: 'invalidUrl', en: true },
      { name: 'observer link with gov', payload: s({ observerUrl: 'https://observer.gov.example/a' }), field: 'observerUrl', key: 'observerUrlSensitive', en: true },
      { name: 'observer link with DHS', payload: s({ observerUrl: 'https://pool.example/DHS/a' }), field: 'observerUrl', key: 'observerUrlSensitive', en: true },
      { name: 'hosted site without prefix', payload: s({ observerUrl: 'https://my.hosted-miners.example/watch?access_key=abc' }), field: 'observerUrl', key: 'observerUrlHosted', en: true },
      { name: 'hosted site without access key', payload: s({ observerUrl: 'https://watch.minerhost.io/w?prefix=acme' }), field: 'observerUrl', key: 'observerUrlHosted', en: true },
      { name: 'link not tested', payload: s({}), field: 'observerUrl', key: 'observerTestRequired' },
    ];
    for (const k of subCases) {
      cases.push({ ...k, name: `sub-account create: ${k.name}`, url: '/api/subAccountV2/save' });
      // An edit keeping an empty password keeps the stored one; the other rules are the same.
      cases.push({ ...k, name: `sub-account edit: ${k.name}`, url: '/api/subAccountV2/save', payload: { ...k.payload, id: sub.id, password: k.field === 'password' ? k.payload.password : '' }, en: true });
    }
    cases.push(
      { name: 'sub-account create: password missing', url: '/api/subAccountV2/save', payload: s({ password: '' }), field: 'password', key: 'passwordRequired' },
      { name: 'sub-account edit: one of another farm', url: '/api/subAccountV2/save', payload: s({ id: otherSub.id, poolName: 'Private pool' }), field: '_', key: '', status: 404, en: true },
      { name: 'sub-account delete: used by a pool group', url: '/api/subAccountV2/delete', payload: { agentKey: KEY, id: sub.id }, field: 'id', key: 'subAccountInUse', status: 409, en: true },
      { name: 'sub-account delete: not an id', url: '/api/subAccountV2/delete', payload: { agentKey: KEY, id: '' }, field: 'id', key: 'id', en: true },
    );
    // The observer test saves a successful test only: bad links and a missing coin leave observer_tests alone.
    const probe = (extra: Record<string, string>): Record<string, unknown> => ({ agentKey: KEY, observerUrl: 'http://127.0.0.1:9/observer/x', coinType: 'BTC', ...extra });
    cases.push(
      { name: 'observer test: link missing', method: 'GET', url: '/api/subAccountV2/testObserverUrl', payload: probe({ observerUrl: '' }), field: 'observerUrl', key: 'observerUrlRequired' },
      { name: 'observer test: invalid url', method: 'GET', url: '/api/subAccountV2/testObserverUrl', payload: probe({ observerUrl: 'not a url' }), field: 'observerUrl', key: 'invalidUrl' },
      { name: 'observer test: sensitive word', method: 'GET', url: '/api/subAccountV2/testObserverUrl', payload: probe({ observerUrl: 'https://pool.dhs.example/o' }), field: 'observerUrl', key: 'observerUrlSensitive' },
      { name: 'observer test: hosted site', method: 'GET', url: '/api/subAccountV2/testObserverUrl', payload: probe({ observerUrl: 'https://observer.hashfield-hosting.com/o?prefix=a' }), field: 'observerUrl', key: 'observerUrlHosted' },
      { name: 'observer test: coin missing', method: 'GET', url: '/api/subAccountV2/testObserverUrl', payload: probe({ coinType: '' }), field: 'coinType', key: 'chooseCoin' },
    );

    // ─── Pool groups: each case as a create and as an edit of `group` ───
    const g = (extra: Record<string, unknown>) => ({ ...goodGroup, name: 'Group B', poolGroupHosting: rows([row({ minerNum: 1 })]), ...extra });
    const groupCases: Omit<Case, 'url'>[] = [
      { name: 'name missing', payload: g({ name: '' }), field: 'name', key: 'poolGroupNameRequired' },
      { name: 'name over 50', payload: g({ name: 'n'.repeat(51) }), field: 'name', key: 'poolGroupNameMax', en: true },
      { name: 'customer missing', payload: g({ customerId: '' }), field: 'customerId', key: 'customerRequired' },
      { name: 'customer unknown', payload: g({ customerId: UNKNOWN_ID }), field: 'customerId', key: 'customerRequired', status: 404, en: true },
      { name: 'customer of another farm', payload: g({ customerId: otherCustomer.id }), field: 'customerId', key: 'customerRequired', status: 404, en: true },
      { name: 'pool 1 missing', payload: g({ pool1Url: '  ' }), field: 'pool1Url', key: 'poolUrlRequired' },
      { name: 'pool 1 over http', payload: g({ pool1Url: 'http://btc.pool.example:3333' }), field: 'pool1Url', key: 'poolUrlFormat' },
      { name: 'pool 1 without a scheme', payload: g({ pool1Url: 'btc.pool.example:3333' }), field: 'pool1Url', key: 'poolUrlFormat' },
      { name: 'pool 1 scheme only', payload: g({ pool1Url: 'stratum+tcp://' }), field: 'pool1Url', key: 'poolUrlFormat', en: true },
      { name: 'pool 1 with a space inside', payload: g({ pool1Url: 'stratum+tcp://btc pool.example:3333' }), field: 'pool1Url', key: 'poolUrlFormat', en: true },
      { name: 'pool 1 with gov', payload: g({ pool1Url: 'stratum+tcp://btc.pool.gov:3333' }), field: 'pool1Url', key: 'poolUrlSensitive' },
      { name: 'pool 2 with dhs', payload: g({ pool2Url: 'stratum+tcp://dhs.example:3333' }), field: 'pool2Url', key: 'poolUrlSensitive' },
      { name: 'pool 3 malformed', payload: g({ pool3Url: 'tcp://x:1' }), field: 'pool3Url', key: 'poolUrlFormat' },
      { name: 'sub-account 1 missing', payload: g({ subAccount1Id: '' }), field: 'subAccount1Id', key: 'subAccountRequired' },
      { name: 'sub-account 1 of another farm', payload: g({ subAccount1Id: otherSub.id }), field: 'subAccount1Id', key: 'subAccountRequired' },
      { name: 'sub-account 2 unknown', payload: g({ pool2Url: 'stratum+tcp://b.example:1', subAccount2Id: UNKNOWN_ID }), field: 'subAccount2Id', key: 'subAccountRequired', en: true },
      { name: 'sub-account 2 without pool 2', payload: g({ subAccount2Id: sub.id }), field: 'pool2Url', key: 'poolUrlRequired', en: true },
      { name: 'sub-account 3 without pool 3', payload: g({ subAccount3Id: sub.id }), field: 'pool3Url', key: 'poolUrlRequired', en: true },
      { name: 'no hosting row', payload: g({ poolGroupHosting: '[]' }), field: 'poolGroupHosting', key: 'hostingAtLeastOne' },
      { name: 'hosting rows not JSON', payload: g({ poolGroupHosting: 'x' }), field: 'poolGroupHosting', key: 'invalid', en: true },
      { name: 'the same type and hashrate twice', payload: g({ poolGroupHosting: rows([row({ minerNum: 1 }), row({ minerNum: 1 })]) }), field: 'poolGroupHosting.1.hashRate', key: 'hostingDuplicate' },
      { name: 'more miners than available', payload: g({ poolGroupHosting: rows([row({ minerNum: 11 })]) }), field: 'poolGroupHosting.0.minerNum', key: 'minerNumOverAvailable' },
      { name: 'a row the customer does not host', payload: g({ poolGroupHosting: rows([row({ type: 'Antminer T21', hashRate: 190, minerNum: 1 })]) }), field: 'poolGroupHosting.0.type', key: 'hostingNotOfCustomer' },
      { name: 'minerNum -1', payload: g({ poolGroupHosting: rows([row({ minerNum: -1 })]) }), field: 'poolGroupHosting.0.minerNum', key: 'minerNum', en: true },
      { name: 'minerNum 1.5', payload: g({ poolGroupHosting: rows([row({ minerNum: 1.5 })]) }), field: 'poolGroupHosting.0.minerNum', key: 'minerNum', en: true },
    ];
    for (const k of groupCases) {
      // On create the other group holds 6 of the 10 S21: 5 is already too many; on edit the group's own 6 are free again.
      const create = k.key === 'minerNumOverAvailable' ? { ...k.payload, poolGroupHosting: rows([row({ minerNum: 5 })]) } : k.payload;
      cases.push({ ...k, name: `pool group create: ${k.name}`, url: '/api/poolgroup/save', payload: create });
      cases.push({ ...k, name: `pool group edit: ${k.name}`, url: '/api/poolgroup/save', payload: { ...k.payload, id: group.id }, en: true });
    }
    cases.push(
      { name: 'pool group edit: unknown group', url: '/api/poolgroup/save', payload: g({ id: UNKNOWN_ID }), field: '_', key: '', status: 404, en: true },
      { name: 'pool group delete: not an id', url: '/api/poolgroup/delete', payload: { agentKey: KEY, poolGroupId: 'x' }, field: 'poolGroupId', key: 'id', en: true },
      { name: 'hosting info: customer missing', method: 'GET', url: '/api/poolgroup/hostingInfo', payload: { agentKey: KEY, customerId: '' }, field: 'customerId', key: 'customerRequired', en: true },
    );

    // ─── Whitelist: each case as a create and as an edit of `entry` ───
    const whitelistCases: Omit<Case, 'url'>[] = [
      { name: 'no pool', payload: { agentKey: KEY, poolUrls: '' }, field: 'poolUrls', key: 'poolUrlRequired' },
      { name: 'only commas', payload: { agentKey: KEY, poolUrls: ' , ,' }, field: 'poolUrls', key: 'poolUrlRequired', en: true },
      { name: 'a malformed pool', payload: { agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1,http://b.example:2' }, field: 'poolUrls', key: 'poolUrlFormat' },
      { name: 'a sensitive word', payload: { agentKey: KEY, poolUrls: 'stratum+tcp://a.gov:1' }, field: 'poolUrls', key: 'poolUrlSensitive' },
      {
        name: 'four pools',
        payload: { agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1,stratum+tcp://b.example:1,stratum+tcp://c.example:1,stratum+tcp://d.example:1' },
        field: 'poolUrls',
        key: 'whitelistMax',
      },
      { name: 'a pool twice', payload: { agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1, STRATUM+TCP://A.EXAMPLE:1' }, field: 'poolUrls', key: 'whitelistRepeat', en: true },
    ];
    for (const k of whitelistCases) {
      cases.push({ ...k, name: `whitelist create: ${k.name}`, url: '/api/poolWhitelist/save' });
      cases.push({ ...k, name: `whitelist edit: ${k.name}`, url: '/api/poolWhitelist/save', payload: { ...k.payload, id: entry.id }, en: true });
    }
    cases.push({ name: 'whitelist edit: an entry of another farm', url: '/api/poolWhitelist/save', payload: { agentKey: KEY, id: otherEntry.id, poolUrls: 'stratum+tcp://z.example:1' }, field: '_', key: '', status: 404, en: true });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  /** Every row of the hosting tables, as JSON, to compare before and after. */
  const snapshot = async () => {
    const out: Record<string, string> = {};
    for (const table of TABLES) out[table] = JSON.stringify((await t.db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort());
    return out;
  };
  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) out[table] = Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return out;
  };

  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`${locale}: each bad input names its field with the rule's message, and no row changes`, async () => {
      const before = await snapshot();
      const countsBefore = await counts();
      const run = cases.filter((c) => locale === 'zh-CN' || c.en);
      expect(run.length).toBeGreaterThan(locale === 'zh-CN' ? 150 : 100);
      const client = clients[locale];
      for (const c of run) {
        const res =
          c.method === 'GET'
            ? await client.get(c.url, Object.fromEntries(Object.entries(c.payload).map(([k, v]) => [k, String(v)])))
            : await client.post(c.url, c.payload);
        expect(res.statusCode, `${c.name}: ${res.body}`).toBe(c.status ?? 400);
        const answer = body<{ fields?: Record<string, string> } | null>(res);
        if (c.key === '') {
          // Not found: the farm's own rows only (another farm's id is unknown here).
          expect(answer.msg, c.name).toBe(locale === 'zh-CN' ? zhErrors.notFound : enErrors.notFound);
          continue;
        }
        const expected = MESSAGES[locale][c.key];
        expect(expected, `errors.json has validation.${c.key}`).toBeTruthy();
        expect(answer.data?.fields?.[c.field], `${c.name}: ${res.body}`).toBe(expected);
        // The toast says the first field's message, with the field's name in front when the message does not say it.
        const [name, text] = Object.entries(answer.data?.fields ?? {})[0] ?? [];
        expect(answer.msg, c.name).toBe(name === c.field && GENERIC_MESSAGES.has(`validation.${c.key}`) ? `${name}: ${text}` : text);
      }
      expect(await counts()).toEqual(countsBefore);
      expect(await snapshot()).toEqual(before);
    }, 60_000);
  }

  it('the zh-CN messages are Chinese, not the English text or the key', () => {
    for (const key of new Set(cases.map((c) => c.key).filter((k) => k !== ''))) {
      const zh = MESSAGES['zh-CN'][key] ?? '';
      expect(zh, key).not.toBe(MESSAGES['en-US'][key]);
      expect(zh, key).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
