/**
 * Pool settings of a farm (spec 2 §3): sub-accounts (password encrypted at rest, observer tests remembered
 * server-side), pool groups with their hosting rows, and the pool whitelist the agent enforces; and the same pool
 * groups and sub-accounts as the miner list's batch set-pool dialog fills from them (spec 3 §7 "pool data").
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import { OBSERVER_TEST_VALID_MS, isObserverTestExempt } from '@shared/pool-sites';
import {
  type HostingInfoRow,
  type PoolGroup,
  type PoolGroupChoice,
  type PoolWhitelistEntry,
  SUB_ACCOUNT_CHOICES_MAX,
  type SaveSubAccountBody,
  type SavePoolGroupBody,
  type SubAccount,
  type SubAccountChoice,
  hostingKey,
} from '@shared/schemas/pool';
import type { DB } from '../../db/kysely';
import type { StoredHostingRow } from '../../db/customers-pools-schema';
import { AppError, fieldError } from '../../errors';
import { likeEscape } from '../miners/miner-sql';
import type { SecretBox } from '../../secret-box';
import { normaliseRow } from './customers.repository';

// ─── Sub-accounts ───

const SUB_COLUMNS = ['id', 'agent_key', 'account_name', 'pool_name', 'coin_type', 'observer_url', 'password_enc', 'created_at'] as const;

interface SubRow {
  id: string;
  agent_key: string;
  account_name: string;
  pool_name: string;
  coin_type: string;
  observer_url: string;
  password_enc: string;
  created_at: Date;
}

export function toSubAccount(r: SubRow): SubAccount {
  return {
    id: r.id,
    agentKey: r.agent_key,
    accountName: r.account_name,
    poolName: r.pool_name,
    coinType: r.coin_type,
    observerUrl: r.observer_url,
    hasPassword: r.password_enc !== '',
    createdAt: r.created_at.toISOString(),
  };
}

export async function listSubAccounts(db: DB, agentKey: string, page: number, pageSize: number): Promise<Page<SubAccount>> {
  const base = db.selectFrom('sub_accounts').where('agent_key', '=', agentKey);
  const [rows, total] = await Promise.all([
    base.select(SUB_COLUMNS).orderBy('created_at', 'desc').orderBy('id').limit(pageSize).offset((page - 1) * pageSize).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toSubAccount), total: Number(total.n), curPage: page, pageSize };
}

/** Remembers a successful observer test of the farm for the link and coin. */
export async function recordObserverTest(db: DB, agentKey: string, observerUrl: string, coinType: string): Promise<void> {
  await db
    .insertInto('observer_tests')
    .values({ agent_key: agentKey, observer_url: observerUrl, coin_type: coinType, tested_at: new Date() })
    .onConflict((oc) => oc.columns(['agent_key', 'observer_url', 'coin_type']).doUpdateSet({ tested_at: new Date() }))
    .execute();
}

async function hasRecentTest(db: DB, agentKey: string, observerUrl: string, coinType: string): Promise<boolean> {
  const row = await db
    .selectFrom('observer_tests')
    .select('tested_at')
    .where('agent_key', '=', agentKey)
    .where('observer_url', '=', observerUrl)
    .where('coin_type', '=', coinType)
    .where('tested_at', '>', new Date(Date.now() - OBSERVER_TEST_VALID_MS))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Creates or edits a sub-account. The observer link must have passed the test within OBSERVER_TEST_VALID_MS
 * for this coin, unless the pool is exempt or an edit keeps the stored link and coin. The password is
 * required on create; an edit with an empty password keeps the stored one.
 */
export async function saveSubAccount(db: DB, box: SecretBox, b: SaveSubAccountBody): Promise<SubAccount> {
  const existing = b.id
    ? await db.selectFrom('sub_accounts').select(SUB_COLUMNS).where('agent_key', '=', b.agentKey).where('id', '=', b.id).executeTakeFirst()
    : undefined;
  if (b.id && !existing) throw new AppError('notFound');
  if (!existing && b.password === '') throw fieldError('password', 'validation.passwordRequired');
  const unchanged = existing !== undefined && existing.observer_url === b.observerUrl && existing.coin_type === b.coinType;
  if (!unchanged && !isObserverTestExempt(b.poolName) && !(await hasRecentTest(db, b.agentKey, b.observerUrl, b.coinType))) {
    throw fieldError('observerUrl', 'validation.observerTestRequired');
  }
  const values = {
    account_name: b.accountName,
    pool_name: b.poolName,
    coin_type: b.coinType,
    observer_url: b.observerUrl,
    ...(b.password === '' ? {} : { password_enc: box.encrypt(b.password) }),
  };
  const row = existing
    ? await db.updateTable('sub_accounts').set({ ...values, updated_at: new Date() }).where('id', '=', existing.id).returning(SUB_COLUMNS).executeTakeFirstOrThrow()
    : await db
        .insertInto('sub_accounts')
        .values({ ...values, password_enc: box.encrypt(b.password), agent_key: b.agentKey })
        .returning(SUB_COLUMNS)
        .executeTakeFirstOrThrow();
  return toSubAccount(row);
}

/** Deletes a sub-account of the farm; one still used by a pool group is refused (409). */
export async function deleteSubAccount(db: DB, agentKey: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('pool_groups')
      .select('id')
      .where('agent_key', '=', agentKey)
      .where((eb) => eb.or([eb('sub_account1_id', '=', id), eb('sub_account2_id', '=', id), eb('sub_account3_id', '=', id)]))
      .limit(1)
      .executeTakeFirst();
    if (used) throw fieldError('id', 'validation.subAccountInUse', 'conflict');
    const res = await trx.deleteFrom('sub_accounts').where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new AppError('notFound');
  });
}

export async function subAccountOptions(db: DB, agentKey: string, by: 'id' | 'name'): Promise<{ text: string; value: string }[]> {
  const rows = await db.selectFrom('sub_accounts').select(['id', 'account_name', 'pool_name']).where('agent_key', '=', agentKey).orderBy('account_name').orderBy('id').execute();
  if (by === 'id') return rows.map((r) => ({ text: `${r.account_name} (${r.pool_name})`, value: r.id }));
  return [...new Set(rows.map((r) => r.account_name))].map((name) => ({ text: name, value: name }));
}

// ─── Pool groups ───

interface GroupRow {
  id: string;
  agent_key: string;
  name: string;
  customer_id: string;
  customer_name: string;
  pool1_url: string;
  pool2_url: string;
  pool3_url: string;
  pool1_user: string;
  pool2_user: string;
  pool3_user: string;
  sub_account1_id: string;
  sub_account2_id: string | null;
  sub_account3_id: string | null;
  hosting: StoredHostingRow[];
  created_at: Date;
}

function toPoolGroup(r: GroupRow): PoolGroup {
  return {
    id: r.id,
    agentKey: r.agent_key,
    name: r.name,
    customerId: r.customer_id,
    customerName: r.customer_name,
    pool1Url: r.pool1_url,
    pool2Url: r.pool2_url,
    pool3Url: r.pool3_url,
    pool1User: r.pool1_user,
    pool2User: r.pool2_user,
    pool3User: r.pool3_user,
    subAccount1Id: r.sub_account1_id,
    subAccount2Id: r.sub_account2_id,
    subAccount3Id: r.sub_account3_id,
    poolGroupHosting: r.hosting.map(normaliseRow),
    createdAt: r.created_at.toISOString(),
  };
}

function groupQuery(db: DB, agentKey: string) {
  return db
    .selectFrom('pool_groups as g')
    .innerJoin('customers as c', 'c.id', 'g.customer_id')
    .selectAll('g')
    .select('c.name as customer_name')
    .where('g.agent_key', '=', agentKey);
}

export async function listPoolGroups(db: DB, agentKey: string): Promise<PoolGroup[]> {
  const rows = await groupQuery(db, agentKey).orderBy('g.created_at', 'desc').orderBy('g.id').execute();
  return rows.map(toPoolGroup);
}

/**
 * The customer's hosting rows with the miners still free for a pool group: the customer's count for a type and
 * hashrate minus what the customer's other pool groups (all but `exceptGroupId`) took.
 */
export async function hostingInfo(db: DB, agentKey: string, customerId: string, exceptGroupId?: string): Promise<HostingInfoRow[]> {
  const customer = await db.selectFrom('customers').select('hosting_result').where('agent_key', '=', agentKey).where('id', '=', customerId).executeTakeFirst();
  if (!customer) throw fieldError('customerId', 'validation.customerRequired', 'notFound');
  let others = db.selectFrom('pool_groups').select('hosting').where('customer_id', '=', customerId);
  if (exceptGroupId) others = others.where('id', '<>', exceptGroupId);
  const taken = new Map<string, number>();
  for (const g of await others.execute()) for (const r of g.hosting) taken.set(hostingKey(r), (taken.get(hostingKey(r)) ?? 0) + Number(r.minerNum));
  const merged = new Map<string, HostingInfoRow>();
  for (const raw of customer.hosting_result) {
    const r = normaliseRow(raw);
    const key = hostingKey(r);
    const prev = merged.get(key);
    if (prev) prev.minerNum += r.minerNum;
    else merged.set(key, { ...r, available: 0 });
  }
  for (const [key, row] of merged) row.available = Math.max(0, row.minerNum - (taken.get(key) ?? 0));
  return [...merged.values()];
}

export async function savePoolGroup(db: DB, b: SavePoolGroupBody): Promise<PoolGroup> {
  return db.transaction().execute(async (trx) => {
    // Serialises saves of the farm so two groups cannot both take the last free miners.
    await trx.selectFrom('farms').select('agent_key').where('agent_key', '=', b.agentKey).forUpdate().executeTakeFirst();
    if (b.id) {
      const own = await trx.selectFrom('pool_groups').select('id').where('agent_key', '=', b.agentKey).where('id', '=', b.id).executeTakeFirst();
      if (!own) throw new AppError('notFound');
    }
    const subIds = [b.subAccount1Id, b.subAccount2Id, b.subAccount3Id].filter((v): v is string => v !== undefined);
    const subs = await trx.selectFrom('sub_accounts').select(['id', 'account_name']).where('agent_key', '=', b.agentKey).where('id', 'in', subIds).execute();
    const names = new Map(subs.map((s) => [s.id, s.account_name]));
    (['subAccount1Id', 'subAccount2Id', 'subAccount3Id'] as const).forEach((field) => {
      const id = b[field];
      if (id !== undefined && !names.has(id)) throw fieldError(field, 'validation.subAccountRequired');
    });
    if (b.subAccount2Id && b.pool2Url === '') throw fieldError('pool2Url', 'validation.poolUrlRequired');
    if (b.subAccount3Id && b.pool3Url === '') throw fieldError('pool3Url', 'validation.poolUrlRequired');
    const rows = await hostingInfo(trx, b.agentKey, b.customerId, b.id);
    const byKey = new Map(rows.map((r) => [hostingKey(r), r]));
    const hosting: StoredHostingRow[] = b.poolGroupHosting.map((row, i) => {
      const match = byKey.get(hostingKey(row));
      if (!match) throw fieldError(`poolGroupHosting.${i}.type`, 'validation.hostingNotOfCustomer');
      if (row.minerNum > match.available) throw fieldError(`poolGroupHosting.${i}.minerNum`, 'validation.minerNumOverAvailable');
      return { type: match.type, coinType: match.coinType, hashRate: match.hashRate, hashRateUnit: match.hashRateUnit, minerModel: match.minerModel, minerNum: row.minerNum };
    });
    const user = (explicit: string, id: string | undefined) => (explicit !== '' ? explicit : id ? (names.get(id) ?? '') : '');
    const values = {
      name: b.name,
      customer_id: b.customerId,
      pool1_url: b.pool1Url,
      pool2_url: b.pool2Url,
      pool3_url: b.pool3Url,
      pool1_user: user(b.pool1User, b.subAccount1Id),
      pool2_user: b.pool2Url === '' ? '' : user(b.pool2User, b.subAccount2Id),
      pool3_user: b.pool3Url === '' ? '' : user(b.pool3User, b.subAccount3Id),
      sub_account1_id: b.subAccount1Id,
      sub_account2_id: b.subAccount2Id ?? null,
      sub_account3_id: b.subAccount3Id ?? null,
      hosting: JSON.stringify(hosting),
    };
    const saved = b.id
      ? await trx.updateTable('pool_groups').set({ ...values, updated_at: new Date() }).where('id', '=', b.id).returning('id').executeTakeFirstOrThrow()
      : await trx.insertInto('pool_groups').values({ ...values, agent_key: b.agentKey }).returning('id').executeTakeFirstOrThrow();
    const row = await groupQuery(trx, b.agentKey).where('g.id', '=', saved.id).executeTakeFirstOrThrow();
    return toPoolGroup(row);
  });
}

export async function deletePoolGroup(db: DB, agentKey: string, id: string): Promise<void> {
  const res = await db.deleteFrom('pool_groups').where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AppError('notFound');
}

export async function poolNameOptions(db: DB, agentKey: string, known: readonly string[]): Promise<{ text: string; value: string }[]> {
  const used = await db.selectFrom('sub_accounts').select('pool_name').distinct().where('agent_key', '=', agentKey).execute();
  const names = [...known, ...used.map((r) => r.pool_name).filter((n) => !known.includes(n)).sort()];
  return names.map((n) => ({ text: n, value: n }));
}

// ─── Pool data of the batch set-pool dialog (spec 3 §7 poolQuery, poolSubAccountQuery) ───

/**
 * The farm's pool groups as the set-pool dialog fills them, newest first: each group's pools in priority order
 * (slots without an address left out), each with its stored worker user, or the sub-account's current name where
 * none is stored. The customer is left-joined: a group always has one today, but the answer allows none.
 */
export async function poolGroupChoices(db: DB, agentKey: string): Promise<PoolGroupChoice[]> {
  const rows = await db
    .selectFrom('pool_groups as g')
    .leftJoin('customers as c', 'c.id', 'g.customer_id')
    .leftJoin('sub_accounts as s1', 's1.id', 'g.sub_account1_id')
    .leftJoin('sub_accounts as s2', 's2.id', 'g.sub_account2_id')
    .leftJoin('sub_accounts as s3', 's3.id', 'g.sub_account3_id')
    .select(['g.id', 'g.name', 'c.name as customer', 'g.pool1_url', 'g.pool2_url', 'g.pool3_url', 'g.pool1_user', 'g.pool2_user', 'g.pool3_user'])
    .select(['s1.account_name as sub1', 's2.account_name as sub2', 's3.account_name as sub3'])
    .where('g.agent_key', '=', agentKey)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id')
    .execute();
  return rows.map((r) => {
    const slots = [
      [r.pool1_url, r.pool1_user, r.sub1],
      [r.pool2_url, r.pool2_user, r.sub2],
      [r.pool3_url, r.pool3_user, r.sub3],
    ] as const;
    const pools = slots.filter(([url]) => url.trim() !== '').map(([url, user, sub]) => ({ url: url.trim(), user: user.trim() !== '' ? user.trim() : (sub ?? '') }));
    return { id: r.id, name: r.name, customer: r.customer ?? null, pools };
  });
}

/**
 * The farm's sub-accounts for picking a worker user, by account name (case-insensitive): at most SUB_ACCOUNT_CHOICES_MAX, narrowed by
 * `keyword` (part of the account or pool name, case-insensitive; % and _ taken literally). No password column is read.
 */
export async function subAccountChoices(db: DB, agentKey: string, keyword: string | undefined): Promise<SubAccountChoice[]> {
  let q = db.selectFrom('sub_accounts').select(['id', 'account_name', 'pool_name', 'coin_type']).where('agent_key', '=', agentKey);
  if (keyword) {
    const like = `%${likeEscape(keyword)}%`;
    q = q.where((eb) => eb.or([eb('account_name', 'ilike', like), eb('pool_name', 'ilike', like)]));
  }
  // Case-insensitive by name, the same under PGlite (C collation) and a PostgreSQL with a locale collation.
  const rows = await q.orderBy(sql`lower(account_name)`).orderBy('account_name').orderBy(sql`lower(pool_name)`).orderBy('id').limit(SUB_ACCOUNT_CHOICES_MAX).execute();
  return rows.map((r) => ({ id: r.id, accountName: r.account_name, poolName: r.pool_name, coinType: r.coin_type }));
}

// ─── Whitelist ───

function toEntry(r: { id: string; agent_key: string; pool_urls: string[]; created_at: Date }): PoolWhitelistEntry {
  return { id: r.id, agentKey: r.agent_key, poolUrls: r.pool_urls.join(','), createdAt: r.created_at.toISOString() };
}

export async function listWhitelist(db: DB, agentKey: string): Promise<PoolWhitelistEntry[]> {
  const rows = await db.selectFrom('pool_whitelist').select(['id', 'agent_key', 'pool_urls', 'created_at']).where('agent_key', '=', agentKey).orderBy('created_at').orderBy('id').execute();
  return rows.map(toEntry);
}

export async function saveWhitelist(db: DB, agentKey: string, id: string | undefined, urls: string[]): Promise<PoolWhitelistEntry> {
  const row = id
    ? await db.updateTable('pool_whitelist').set({ pool_urls: urls }).where('agent_key', '=', agentKey).where('id', '=', id).returning(['id', 'agent_key', 'pool_urls', 'created_at']).executeTakeFirst()
    : await db.insertInto('pool_whitelist').values({ agent_key: agentKey, pool_urls: urls }).returning(['id', 'agent_key', 'pool_urls', 'created_at']).executeTakeFirst();
  if (!row) throw new AppError('notFound');
  return toEntry(row);
}

export async function deleteWhitelist(db: DB, agentKey: string, id: string): Promise<void> {
  const res = await db.deleteFrom('pool_whitelist').where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AppError('notFound');
}

/** The farm's whitelist as the agent config wants it: one array of pool URLs per entry. */
export async function whitelistForAgent(db: DB, agentKey: string): Promise<string[][]> {
  return (await listWhitelist(db, agentKey)).map((e) => e.poolUrls.split(','));
}
