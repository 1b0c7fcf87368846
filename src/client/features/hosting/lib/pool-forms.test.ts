import { describe, expect, it } from 'vitest';
import { type HostingInfoRow, type PoolGroupFormValues, type SubAccount, hostingKey, validatePoolGroupForm, validateSubAccountForm } from '@shared/schemas/pool';
import { availableByKey, observerTestProblem, observerTestSatisfied, poolGroupFormToBody, rowOptions, validateWhitelistForm, withCustomerChanged, withRowChosen } from './pool-forms';
import { tabFromLocation } from './pool-tabs';

const rows: HostingInfoRow[] = [
  { type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: '', minerNum: 10, available: 4 },
  { type: 'Antminer S19j Pro', coinType: 'BTC', hashRate: 100, hashRateUnit: 'TH/s', minerModel: '', minerNum: 5, available: 5 },
];
const s21 = hostingKey(rows[0]!);
const s19 = hostingKey(rows[1]!);
const group = (extra: Partial<PoolGroupFormValues> = {}): PoolGroupFormValues => ({
  name: 'G',
  customerId: 'c1',
  pool1Url: 'stratum+tcp://btc.pool.example:3333',
  pool2Url: '',
  pool3Url: '',
  subAccount1Id: 's1',
  subAccount2Id: '',
  subAccount3Id: '',
  poolGroupHosting: [{ key: s21, minerNum: '4' }],
  ...extra,
});

describe('pool group dialog rules (spec 2 §5)', () => {
  const available = availableByKey(rows);
  it('accepts a complete group', () => {
    expect(validatePoolGroupForm(group(), available)).toEqual({});
  });
  it('requires name, customer, pool 1 and its sub-account', () => {
    expect(validatePoolGroupForm(group({ name: '', customerId: '', pool1Url: '', subAccount1Id: '' }), available)).toEqual({
      name: 'validation.poolGroupNameRequired',
      customerId: 'validation.customerRequired',
      pool1Url: 'validation.poolUrlRequired',
      subAccount1Id: 'validation.subAccountRequired',
    });
  });
  it('checks the pool address format and sensitive words', () => {
    expect(validatePoolGroupForm(group({ pool1Url: 'http://btc.pool.example' }), available)).toEqual({ pool1Url: 'validation.poolUrlFormat' });
    expect(validatePoolGroupForm(group({ pool2Url: 'stratum+ssl://pool.gov.example:1' }), available)).toEqual({ pool2Url: 'validation.poolUrlSensitive' });
    expect(validatePoolGroupForm(group({ pool3Url: 'stratum2+tcp://dhs.example:1' }), available)).toEqual({ pool3Url: 'validation.poolUrlSensitive' });
    expect(validatePoolGroupForm(group({ pool1Url: '  stratum+tcp://ok.example:1  ' }), available)).toEqual({});
  });
  it('caps minerNum by the customer\'s available count and refuses a repeated pair', () => {
    expect(validatePoolGroupForm(group({ poolGroupHosting: [{ key: s21, minerNum: '5' }] }), available)).toEqual({ 'poolGroupHosting.0.minerNum': 'validation.minerNumOverAvailable' });
    expect(validatePoolGroupForm(group({ poolGroupHosting: [{ key: s21, minerNum: '1' }, { key: s21, minerNum: '1' }] }), available)).toEqual({ 'poolGroupHosting.1.key': 'validation.hostingDuplicate' });
    expect(validatePoolGroupForm(group({ poolGroupHosting: [] }), available)).toEqual({ poolGroupHosting: 'validation.hostingAtLeastOne' });
    expect(rowOptions(rows).map((o) => o.value)).toEqual([s21, s19]);
  });
  it('clears a type and hashrate pair that another row already holds', () => {
    const v = group({ poolGroupHosting: [{ key: s21, minerNum: '4' }, { key: '', minerNum: '' }] });
    const dup = withRowChosen(v, 1, s21);
    expect(dup.duplicate).toBe(true);
    expect(dup.values.poolGroupHosting).toEqual([{ key: s21, minerNum: '4' }, { key: '', minerNum: '' }]);
    const fresh = withRowChosen(v, 1, s19);
    expect(fresh.duplicate).toBe(false);
    expect(fresh.values.poolGroupHosting[1]).toEqual({ key: s19, minerNum: '' });
    // Re-picking its own pair is no duplicate.
    expect(withRowChosen(v, 0, s21).duplicate).toBe(false);
  });
  it('needs the address of pool 2 or 3 when its sub-account is chosen', () => {
    expect(validatePoolGroupForm(group({ subAccount2Id: 's2', subAccount3Id: 's3' }), available)).toEqual({ pool2Url: 'validation.poolUrlRequired', pool3Url: 'validation.poolUrlRequired' });
  });
  it('changing the customer resets the rows to one empty row', () => {
    const v = group({ poolGroupHosting: [{ key: s21, minerNum: '4' }, { key: s19, minerNum: '1' }] });
    expect(withCustomerChanged(v, 'c2').poolGroupHosting).toEqual([{ key: '', minerNum: '' }]);
    expect(withCustomerChanged(v, 'c1')).toBe(v);
  });
  it('sends trimmed URLs and the hosting rows of the customer as JSON', () => {
    const b = poolGroupFormToBody(group({ pool1Url: ' stratum+tcp://a.example:1 ' }), rows);
    expect(b.pool1Url).toBe('stratum+tcp://a.example:1');
    expect(JSON.parse(b.poolGroupHosting ?? '[]')).toEqual([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: '', minerNum: 4 }]);
  });
});

describe('sub-account dialog rules (spec 2 §5)', () => {
  const values = { accountName: 'a', password: 'p', poolName: 'AntPool', coinType: 'BTC', observerUrl: 'https://pool.example/observer/a' };
  it('requires every field and a well-formed observer link', () => {
    expect(validateSubAccountForm({ accountName: '', password: '', poolName: '', coinType: '', observerUrl: '' }, false)).toEqual({
      accountName: 'validation.accountNameRequired',
      password: 'validation.passwordRequired',
      poolName: 'validation.poolNameRequired',
      coinType: 'validation.chooseCoin',
      observerUrl: 'validation.observerUrlRequired',
    });
    expect(validateSubAccountForm({ ...values, password: '' }, true)).toEqual({});
    expect(validateSubAccountForm({ ...values, observerUrl: 'pool.example' }, false)).toEqual({ observerUrl: 'validation.invalidUrl' });
    expect(validateSubAccountForm({ ...values, observerUrl: 'https://x.gov/o' }, false)).toEqual({ observerUrl: 'validation.observerUrlSensitive' });
    expect(validateSubAccountForm({ ...values, observerUrl: 'https://my.hosted.example/o?access_key=1' }, false)).toEqual({ observerUrl: 'validation.observerUrlHosted' });
    expect(validateSubAccountForm({ ...values, observerUrl: 'https://my.hosted.example/o?access_key=1&prefix=w' }, false)).toEqual({});
  });
  it('tests only with a coin and a good link', () => {
    expect(observerTestProblem(values.observerUrl, '')).toEqual({ field: 'coinType', key: 'validation.chooseCoin' });
    expect(observerTestProblem('', 'BTC')).toEqual({ field: 'observerUrl', key: 'validation.observerUrlRequired' });
    expect(observerTestProblem(values.observerUrl, 'BTC')).toBeNull();
  });
  it('saves after a passed test of the same link and coin, for an exempt pool, or an unchanged edit', () => {
    expect(observerTestSatisfied(values, null, undefined)).toBe(false);
    expect(observerTestSatisfied(values, { observerUrl: values.observerUrl, coinType: 'BCH' }, undefined)).toBe(false);
    expect(observerTestSatisfied(values, { observerUrl: values.observerUrl, coinType: 'BTC' }, undefined)).toBe(true);
    expect(observerTestSatisfied({ ...values, poolName: 'Private pool' }, null, undefined)).toBe(true);
    const saved: SubAccount = { id: 'x', agentKey: 'f', accountName: 'a', poolName: 'AntPool', coinType: 'BTC', observerUrl: values.observerUrl, hasPassword: true, createdAt: '' };
    expect(observerTestSatisfied(values, null, saved)).toBe(true);
    expect(observerTestSatisfied({ ...values, coinType: 'BCH' }, null, saved)).toBe(false);
  });
});

describe('whitelist and tabs', () => {
  it('needs pool 1, well-formed pools and no repeats', () => {
    expect(validateWhitelistForm({ urls: ['', '', ''] })).toEqual({ 'urls.0': 'validation.poolUrlRequired' });
    expect(validateWhitelistForm({ urls: ['stratum+tcp://a:1', 'http://b', ''] })).toEqual({ 'urls.1': 'validation.poolUrlFormat' });
    expect(validateWhitelistForm({ urls: ['stratum+tcp://a:1', 'STRATUM+TCP://A:1', ''] })).toEqual({ 'urls.1': 'validation.whitelistRepeat' });
    expect(validateWhitelistForm({ urls: ['stratum+tcp://a:1', '', 'stratum+ssl://b:2'] })).toEqual({});
  });
  it('reads the tab from the path or the query', () => {
    expect(tabFromLocation('/setting/agent/pool', null)).toBe('groups');
    expect(tabFromLocation('/setting/agent/pool/whitelist', null)).toBe('whitelist');
    expect(tabFromLocation('/setting/agent/pool', 'subAccounts')).toBe('subAccounts');
    expect(tabFromLocation('/setting/agent/pool/bogus', 'nope')).toBe('groups');
  });
});
