/**
 * Client rules of the pool dialogs that go beyond the shared field rules: when a sub-account may be saved
 * (a successful observer test of the same link and coin, unless exempt or unchanged) and the hosting rows of a
 * pool group (options from the customer's hosting, the count still free).
 */
import { isObserverTestExempt, observerUrlProblem, poolUrlProblem } from '@shared/pool-sites';
import { type HostingInfoRow, type PoolGroup, type PoolGroupFormValues, type SubAccount, type SubAccountFormValues, hostingKey } from '@shared/schemas/pool';

/** The link and coin of the last successful observer test. */
export interface PassedTest {
  observerUrl: string;
  coinType: string;
}

/** `errors:` key when the observer link cannot be tested yet (missing coin first, then the link), else null. */
export function observerTestProblem(observerUrl: string, coinType: string): { field: 'coinType' | 'observerUrl'; key: string } | null {
  if (coinType.trim() === '') return { field: 'coinType', key: 'validation.chooseCoin' };
  const url = observerUrlProblem(observerUrl);
  return url ? { field: 'observerUrl', key: url } : null;
}

/** True when the sub-account may be saved without (another) test. */
export function observerTestSatisfied(values: SubAccountFormValues, passed: PassedTest | null, original: SubAccount | undefined): boolean {
  if (isObserverTestExempt(values.poolName)) return true;
  const url = values.observerUrl.trim();
  if (original && original.observerUrl === url && original.coinType === values.coinType) return true;
  return passed !== null && passed.observerUrl === url && passed.coinType === values.coinType;
}

export function subAccountToForm(s: SubAccount | undefined): SubAccountFormValues {
  return s
    ? { accountName: s.accountName, password: '', poolName: s.poolName, coinType: s.coinType, observerUrl: s.observerUrl }
    : { accountName: '', password: '', poolName: '', coinType: '', observerUrl: '' };
}

export function emptyGroupRow(): PoolGroupFormValues['poolGroupHosting'][number] {
  return { key: '', minerNum: '' };
}

export function poolGroupToForm(g: PoolGroup | undefined): PoolGroupFormValues {
  if (!g)
    return { name: '', customerId: '', pool1Url: '', pool2Url: '', pool3Url: '', subAccount1Id: '', subAccount2Id: '', subAccount3Id: '', poolGroupHosting: [emptyGroupRow()] };
  return {
    name: g.name,
    customerId: g.customerId,
    pool1Url: g.pool1Url,
    pool2Url: g.pool2Url,
    pool3Url: g.pool3Url,
    subAccount1Id: g.subAccount1Id,
    subAccount2Id: g.subAccount2Id ?? '',
    subAccount3Id: g.subAccount3Id ?? '',
    poolGroupHosting: g.poolGroupHosting.length ? g.poolGroupHosting.map((r) => ({ key: hostingKey(r), minerNum: String(r.minerNum) })) : [emptyGroupRow()],
  };
}

/** Changing the customer resets the hosting rows to one empty row (spec 2 §4). */
export function withCustomerChanged(values: PoolGroupFormValues, customerId: string): PoolGroupFormValues {
  if (customerId === values.customerId) return values;
  return { ...values, customerId, poolGroupHosting: [emptyGroupRow()] };
}

/** Available count per hosting key, for the minerNum cap. */
export function availableByKey(rows: readonly HostingInfoRow[]): Map<string, number> {
  return new Map(rows.map((r) => [hostingKey(r), r.available]));
}

/** The options of every row: all of the customer's rows (type · coin · hashrate). */
export function rowOptions(rows: readonly HostingInfoRow[]): { value: string; label: string }[] {
  return rows.map((r) => ({ value: hostingKey(r), label: `${r.type} · ${r.coinType} · ${r.hashRate} ${r.hashRateUnit}` }));
}

/**
 * Row `index` picks `key`. The same pair of type and hashrate cannot repeat across rows (spec 2 §5): a pair another
 * row already holds is cleared, and `duplicate` tells the dialog to say why. A new pick empties minerNum.
 */
export function withRowChosen(values: PoolGroupFormValues, index: number, key: string): { values: PoolGroupFormValues; duplicate: boolean } {
  const duplicate = key !== '' && values.poolGroupHosting.some((r, i) => i !== index && r.key === key);
  const poolGroupHosting = values.poolGroupHosting.map((r, i) => (i === index ? { key: duplicate ? '' : key, minerNum: '' } : r));
  return { values: { ...values, poolGroupHosting }, duplicate };
}

/** The pool-group dialog's values as the save body; URLs trimmed, hosting rows as JSON text. */
export function poolGroupFormToBody(v: PoolGroupFormValues, rows: readonly HostingInfoRow[]): Record<string, string> {
  const byKey = new Map(rows.map((r) => [hostingKey(r), r]));
  const hosting = v.poolGroupHosting.flatMap((row) => {
    const r = byKey.get(row.key);
    return r ? [{ type: r.type, coinType: r.coinType, hashRate: r.hashRate, hashRateUnit: r.hashRateUnit, minerModel: r.minerModel, minerNum: Number(row.minerNum) }] : [];
  });
  return {
    name: v.name.trim(),
    customerId: v.customerId,
    pool1Url: v.pool1Url.trim(),
    pool2Url: v.pool2Url.trim(),
    pool3Url: v.pool3Url.trim(),
    subAccount1Id: v.subAccount1Id,
    subAccount2Id: v.subAccount2Id,
    subAccount3Id: v.subAccount3Id,
    poolGroupHosting: JSON.stringify(hosting),
  };
}

/** The whitelist dialog: one input per pool of the entry. */
export interface WhitelistFormValues {
  urls: string[];
}

/** Field → `errors:` key: pool 1 required, every filled pool well formed, no pool twice. */
export function validateWhitelistForm(v: WhitelistFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  v.urls.forEach((raw, i) => {
    const url = raw.trim();
    if (url === '') {
      if (i === 0) errors[`urls.${i}`] = 'validation.poolUrlRequired';
      return;
    }
    const problem = poolUrlProblem(url);
    if (problem) errors[`urls.${i}`] = problem;
    else if (seen.has(url.toLowerCase())) errors[`urls.${i}`] = 'validation.whitelistRepeat';
    seen.add(url.toLowerCase());
  });
  return errors;
}
