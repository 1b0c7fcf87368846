/**
 * Pool settings of a farm (spec 2 §3, §5, §7): sub-accounts with their observer links, pool groups and the
 * pool whitelist. Request schemas shared by the server routes and the dialogs; messages are `errors:` keys.
 */
import { z } from 'zod';
import { findMenuByKey } from '../menu-catalogue';
import { POOL_WHITELIST_MAX, observerUrlProblem, poolUrlProblem } from '../pool-sites';
import { HASHRATE_UNITS } from '../units';
import { HostingRowSchema, agentKeyField, jsonArray, numberField, optionalId, requiredId } from './customer';

const menu = findMenuByKey('poolSettings');
/** Catalogue entry poolSettings: 81000 to see, 81500 to change (pool groups, sub-accounts, whitelist). */
export const POOL_PERMISSION = { view: menu?.permission ?? 81_000, operate: menu?.operation ?? 81_500 } as const;

export interface SubAccount {
  id: string;
  agentKey: string;
  accountName: string;
  poolName: string;
  coinType: string;
  observerUrl: string;
  /** The password is stored encrypted and never answered. */
  hasPassword: boolean;
  createdAt: string;
}

export interface ObserverTestResult {
  status: 0 | 1;
  hashP: number | null;
  unit: string | null;
  msg: string;
}

export interface PoolGroupHostingRow {
  type: string;
  coinType: string;
  hashRate: number;
  hashRateUnit: string;
  minerModel: string;
  minerNum: number;
}

export interface PoolGroup {
  id: string;
  agentKey: string;
  name: string;
  customerId: string;
  customerName: string;
  pool1Url: string;
  pool2Url: string;
  pool3Url: string;
  pool1User: string;
  pool2User: string;
  pool3User: string;
  subAccount1Id: string;
  subAccount2Id: string | null;
  subAccount3Id: string | null;
  poolGroupHosting: PoolGroupHostingRow[];
  createdAt: string;
}

/** A customer's hosting row with what other pool groups already took (GET /api/poolgroup/hostingInfo). */
export interface HostingInfoRow extends PoolGroupHostingRow {
  /** Miners of this type and hashrate not yet in another pool group of the customer. */
  available: number;
}

export interface PoolWhitelistEntry {
  id: string;
  agentKey: string;
  /** Comma-joined on the wire. */
  poolUrls: string;
  createdAt: string;
}

const trimmed = z.preprocess((v) => (typeof v === 'string' ? v.trim() : (v ?? '')), z.string());
const messageCheck = (problem: (v: string) => string | null) => (v: string, ctx: z.RefinementCtx) => {
  const key = problem(v);
  if (key) ctx.addIssue({ code: 'custom', message: key });
};

export const PoolUrl = z.string('validation.poolUrlFormat').trim().superRefine(messageCheck(poolUrlProblem));
const optionalPoolUrl = trimmed.superRefine((v, ctx) => {
  if (v !== '') messageCheck(poolUrlProblem)(v, ctx);
});

// ─── Sub-accounts ───

export const ObserverTestQuery = z.object({
  agentKey: agentKeyField,
  observerUrl: trimmed.superRefine(messageCheck(observerUrlProblem)),
  coinType: z.string('validation.chooseCoin').trim().min(1, 'validation.chooseCoin').max(20, 'validation.chooseCoin'),
});

export const SaveSubAccountBody = z.object({
  agentKey: agentKeyField,
  id: optionalId,
  accountName: z.string('validation.accountNameRequired').trim().min(1, 'validation.accountNameRequired').max(100, 'validation.accountNameRequired'),
  /** Required on create; on edit an empty password keeps the stored one. */
  password: z.preprocess((v) => v ?? '', z.string().max(200, 'validation.passwordMax')),
  poolName: z.string('validation.poolNameRequired').trim().min(1, 'validation.poolNameRequired').max(100, 'validation.poolNameRequired'),
  coinType: z.string('validation.chooseCoin').trim().min(1, 'validation.chooseCoin').max(20, 'validation.chooseCoin'),
  observerUrl: trimmed.superRefine(messageCheck(observerUrlProblem)),
});
export type SaveSubAccountBody = z.output<typeof SaveSubAccountBody>;

export const DeleteByIdBody = z.object({ agentKey: agentKeyField, id: requiredId('validation.id') });

// ─── Pool groups ───

export const PoolGroupHostingSchema = HostingRowSchema.extend({
  hashRateUnit: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(HASHRATE_UNITS, 'validation.invalid').default('TH/s')),
  minerNum: numberField('validation.minerNum').pipe(z.number().int('validation.minerNum').min(0, 'validation.minerNum').max(1_000_000, 'validation.minerNum')),
});

export const SavePoolGroupBody = z
  .object({
    agentKey: agentKeyField,
    id: optionalId,
    name: z.string('validation.poolGroupNameRequired').trim().min(1, 'validation.poolGroupNameRequired').max(50, 'validation.poolGroupNameMax'),
    customerId: requiredId('validation.customerRequired'),
    pool1Url: z.preprocess((v) => v ?? '', z.string()).pipe(
      z
        .string()
        .trim()
        .min(1, 'validation.poolUrlRequired')
        .superRefine((v, ctx) => {
          if (v !== '') messageCheck(poolUrlProblem)(v, ctx);
        }),
    ),
    pool2Url: optionalPoolUrl,
    pool3Url: optionalPoolUrl,
    pool1User: trimmed.pipe(z.string().max(200, 'validation.invalid')),
    pool2User: trimmed.pipe(z.string().max(200, 'validation.invalid')),
    pool3User: trimmed.pipe(z.string().max(200, 'validation.invalid')),
    subAccount1Id: requiredId('validation.subAccountRequired'),
    subAccount2Id: optionalId,
    subAccount3Id: optionalId,
    poolGroupHosting: jsonArray(PoolGroupHostingSchema, 'validation.hostingAtLeastOne'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.poolGroupHosting.forEach((row, i) => {
      const key = hostingKey(row);
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['poolGroupHosting', i, 'hashRate'], message: 'validation.hostingDuplicate' });
      seen.add(key);
    });
  });
export type SavePoolGroupBody = z.output<typeof SavePoolGroupBody>;

/** Rows of a pool group match customer rows by type and hashrate (spec 2 §5 "the same pair cannot repeat"). */
export function hostingKey(row: { type: string; hashRate: number | string; hashRateUnit: string }): string {
  return `${row.type.trim().toLowerCase()}|${Number(row.hashRate)}|${row.hashRateUnit}`;
}

export const DeletePoolGroupBody = z.object({ agentKey: agentKeyField, poolGroupId: requiredId('validation.id') });
export const HostingInfoQuery = z.object({ agentKey: agentKeyField, customerId: requiredId('validation.customerRequired'), poolGroupId: optionalId });

// ─── Pool whitelist ───

/** "url1,url2,url3": 1 to 3 pool URLs, each a well-formed pool address, no repeats. */
export const PoolUrlList = z
  .preprocess((v) => (Array.isArray(v) ? v.join(',') : (v ?? '')), z.string())
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  )
  .superRefine((urls, ctx) => {
    if (urls.length === 0) ctx.addIssue({ code: 'custom', message: 'validation.poolUrlRequired' });
    else if (urls.length > POOL_WHITELIST_MAX) ctx.addIssue({ code: 'custom', message: 'validation.whitelistMax' });
    for (const url of urls) {
      const key = poolUrlProblem(url);
      if (key) {
        ctx.addIssue({ code: 'custom', message: key });
        return;
      }
    }
    if (new Set(urls.map((u) => u.toLowerCase())).size !== urls.length) ctx.addIssue({ code: 'custom', message: 'validation.whitelistRepeat' });
  });

export const SaveWhitelistBody = z.object({ agentKey: agentKeyField, id: optionalId, poolUrls: PoolUrlList });

// ─── Pool data of the batch set-pool dialog (spec 3 §7 "pool data": GET /api/minerv2/poolQuery, /poolSubAccountQuery) ───

/** One pool of a pool group as a miner gets it: address and worker user (the sub-account's name unless the group names another). */
export interface PoolChoicePool {
  url: string;
  user: string;
}

/** A pool group of the farm for "fill from pool group": its 1–3 pools in priority order (empty slots left out). */
export interface PoolGroupChoice {
  id: string;
  name: string;
  /** The customer's name, null when the group has none. */
  customer: string | null;
  pools: PoolChoicePool[];
}

/** A sub-account of the farm for picking a pool's worker user; never its password. */
export interface SubAccountChoice {
  id: string;
  accountName: string;
  poolName: string;
  coinType: string;
}

/** poolSubAccountQuery answers at most this many sub-accounts (a keyword narrows them). */
export const SUB_ACCOUNT_CHOICES_MAX = 200;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** keyword: part of the account name or the pool name, case-insensitive; empty = every sub-account. */
export const PoolSubAccountQuery = z.object({
  agentKey: z.string('validation.agentKeyRequired').trim().min(1, 'validation.agentKeyRequired').max(64),
  keyword: z.preprocess(blankToUndefined, z.string().trim().max(64).optional()),
});
export type PoolSubAccountQuery = z.output<typeof PoolSubAccountQuery>;

// ─── Dialog helpers ───

export interface SubAccountFormValues {
  accountName: string;
  password: string;
  poolName: string;
  coinType: string;
  observerUrl: string;
}

/** Field → `errors:` key of the sub-account dialog (create requires the password). */
export function validateSubAccountForm(v: SubAccountFormValues, editing: boolean): Record<string, string> {
  const errors: Record<string, string> = {};
  if (v.accountName.trim() === '') errors.accountName = 'validation.accountNameRequired';
  if (!editing && v.password === '') errors.password = 'validation.passwordRequired';
  if (v.poolName.trim() === '') errors.poolName = 'validation.poolNameRequired';
  if (v.coinType.trim() === '') errors.coinType = 'validation.chooseCoin';
  const url = observerUrlProblem(v.observerUrl);
  if (url) errors.observerUrl = url;
  return errors;
}

export interface PoolGroupFormValues {
  name: string;
  customerId: string;
  pool1Url: string;
  pool2Url: string;
  pool3Url: string;
  subAccount1Id: string;
  subAccount2Id: string;
  subAccount3Id: string;
  poolGroupHosting: { key: string; minerNum: string }[];
}

/**
 * Field → `errors:` key of the pool-group dialog; `available` maps a hosting key to the customer's count still
 * free for this group (minerNum is capped by it).
 */
export function validatePoolGroupForm(v: PoolGroupFormValues, available: ReadonlyMap<string, number>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (v.name.trim() === '') errors.name = 'validation.poolGroupNameRequired';
  else if (v.name.trim().length > 50) errors.name = 'validation.poolGroupNameMax';
  if (v.customerId === '') errors.customerId = 'validation.customerRequired';
  if (v.pool1Url.trim() === '') errors.pool1Url = 'validation.poolUrlRequired';
  for (const field of ['pool1Url', 'pool2Url', 'pool3Url'] as const) {
    const value = v[field].trim();
    const key = value === '' ? null : poolUrlProblem(value);
    if (key) errors[field] = key;
  }
  if (v.subAccount1Id === '') errors.subAccount1Id = 'validation.subAccountRequired';
  // A sub-account of pool 2 or 3 needs that pool's address (the server refuses it too).
  if (v.subAccount2Id !== '' && v.pool2Url.trim() === '') errors.pool2Url = 'validation.poolUrlRequired';
  if (v.subAccount3Id !== '' && v.pool3Url.trim() === '') errors.pool3Url = 'validation.poolUrlRequired';
  if (v.poolGroupHosting.length === 0) errors.poolGroupHosting = 'validation.hostingAtLeastOne';
  const seen = new Set<string>();
  v.poolGroupHosting.forEach((row, i) => {
    if (row.key === '') errors[`poolGroupHosting.${i}.key`] = 'validation.hostingType';
    else if (seen.has(row.key)) errors[`poolGroupHosting.${i}.key`] = 'validation.hostingDuplicate';
    seen.add(row.key);
    const n = row.minerNum.trim() === '' ? Number.NaN : Number(row.minerNum);
    if (!Number.isInteger(n) || n < 0) errors[`poolGroupHosting.${i}.minerNum`] = 'validation.minerNum';
    else if (row.key !== '' && n > (available.get(row.key) ?? 0)) errors[`poolGroupHosting.${i}.minerNum`] = 'validation.minerNumOverAvailable';
  });
  return errors;
}
