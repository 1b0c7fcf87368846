/**
 * The spec-3 §7 pool data and approver option calls, through the HTTP API: GET /api/minerv2/poolQuery (the farm's
 * pool groups as the batch set-pool dialog fills them), /api/minerv2/poolSubAccountQuery (sub-accounts for a pool's
 * worker user, never a password) and /api/options/auditorList (who the approval setting accepts as approver).
 * Shapes, order, keyword, farm scoping, permission keys and localised refusals of bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Option } from '@shared/schemas/common';
import type { PoolGroupChoice, SubAccountChoice } from '@shared/schemas/pool';
import { Client, type TestApp, body, createCustomer, createFarm, createMember, createTestApp, setupAdmin } from './harness';

const KEY = 'pq-a';
const OTHER = 'pq-b';
const BIG = 'pq-c';
const POOL_SECRET = 'pool-secret-7f3a';
const URL_A1 = 'stratum+tcp://btc.hashfield-pool.com:3333';
const URL_A2 = 'stratum+tcp://btc-backup.hashfield-pool.com:443';
const URL_B1 = 'stratum+ssl://eu.hashfield-pool.com:700';
const URL_B3 = 'stratum+tcp://asia.hashfield-pool.com:3333';

describe('pool data and approver options', () => {
  let t: TestApp;
  let admin: Client;
  const subs = { hfarm01: '', hfarm02: '', other: '', zeta: '' };
  const groups = { old: '', new: '', other: '' };

  /** A sub-account of `agentKey` saved through the API ("Private pool" needs no observer test). */
  async function saveSub(agentKey: string, accountName: string): Promise<string> {
    const res = await admin.post('/api/subAccountV2/save', { agentKey, accountName, password: POOL_SECRET, poolName: 'Private pool', coinType: 'BTC', observerUrl: 'https://observer.example.com/watch?account=x' });
    if (res.statusCode !== 200) throw new Error(`sub-account ${accountName}: ${res.body}`);
    return body<{ id: string }>(res).data.id;
  }

  async function saveGroup(agentKey: string, customerId: string, fields: Record<string, string>): Promise<string> {
    const hosting = JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 1 }]);
    const res = await admin.post('/api/poolgroup/save', { agentKey, customerId, poolGroupHosting: hosting, ...fields });
    if (res.statusCode !== 200) throw new Error(`pool group ${fields.name}: ${res.body}`);
    return body<{ id: string }>(res).data.id;
  }

  const count = async (table: 'sub_accounts' | 'pool_groups' | 'approval_settings') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    for (const k of [KEY, OTHER, BIG]) await createFarm(admin, k);
    const acme = await createCustomer(admin, KEY, 'Acme Hosting');
    const beta = await createCustomer(admin, OTHER, 'Beta Mining');
    subs.hfarm01 = await saveSub(KEY, 'hfarm01');
    subs.hfarm02 = await saveSub(KEY, 'HFarm02');
    subs.other = await saveSub(OTHER, 'hfarm-other');
    // Another pool (not exempt from the observer test): written directly, as a tested one would be.
    const via = await t.db
      .insertInto('sub_accounts')
      .values({ agent_key: KEY, account_name: 'zeta_1', pool_name: 'ViaBTC', coin_type: 'LTC', observer_url: 'https://www.viabtc.com/observer', password_enc: 'sealed' })
      .returning('id')
      .executeTakeFirstOrThrow();
    subs.zeta = via.id;
    // Old: pools 1 and 2, users defaulted to the sub-accounts' names. New: pools 1 and 3 (2 empty), pool 1 with its own user.
    groups.old = await saveGroup(KEY, acme, { name: 'Group Old', pool1Url: URL_A1, subAccount1Id: subs.hfarm01, pool2Url: URL_A2, subAccount2Id: subs.hfarm02 });
    groups.new = await saveGroup(KEY, acme, { name: 'Group New', pool1Url: URL_B1, pool1User: 'acme.rig', subAccount1Id: subs.hfarm02, pool3Url: URL_B3, subAccount3Id: subs.hfarm01 });
    groups.other = await saveGroup(OTHER, beta, { name: 'Group Beta', pool1Url: URL_A1, subAccount1Id: subs.other });
    // Deterministic ages: Old an hour before New.
    await t.db.updateTable('pool_groups').set({ created_at: new Date(Date.now() - 3_600_000) }).where('id', '=', groups.old).execute();
  }, 60_000);
  afterAll(async () => t.close());

  // ─── poolQuery ───

  it('poolQuery: the farm\'s pool groups newest first, each pool with its URL and worker user, empty slots left out', async () => {
    const res = await admin.get('/api/minerv2/poolQuery', { agentKey: KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<PoolGroupChoice[]>(res).data).toEqual([
      {
        id: groups.new,
        name: 'Group New',
        customer: 'Acme Hosting',
        pools: [
          { url: URL_B1, user: 'acme.rig' },
          { url: URL_B3, user: 'hfarm01' },
        ],
      },
      {
        id: groups.old,
        name: 'Group Old',
        customer: 'Acme Hosting',
        pools: [
          { url: URL_A1, user: 'hfarm01' },
          { url: URL_A2, user: 'HFarm02' },
        ],
      },
    ]);
    // The other farm sees only its own group.
    const other = body<PoolGroupChoice[]>(await admin.get('/api/minerv2/poolQuery', { agentKey: OTHER })).data;
    expect(other.map((g) => g.name)).toEqual(['Group Beta']);
    expect(body<PoolGroupChoice[]>(await admin.get('/api/minerv2/poolQuery', { agentKey: BIG })).data).toEqual([]);
  });

  it('poolQuery: a pool without a stored user answers its sub-account\'s current name', async () => {
    await t.db.updateTable('pool_groups').set({ pool2_user: '' }).where('id', '=', groups.old).execute();
    await t.db.updateTable('sub_accounts').set({ account_name: 'HFarm02-renamed' }).where('id', '=', subs.hfarm02).execute();
    try {
      const old = body<PoolGroupChoice[]>(await admin.get('/api/minerv2/poolQuery', { agentKey: KEY })).data.find((g) => g.id === groups.old);
      expect(old?.pools).toEqual([
        { url: URL_A1, user: 'hfarm01' },
        { url: URL_A2, user: 'HFarm02-renamed' },
      ]);
    } finally {
      await t.db.updateTable('pool_groups').set({ pool2_user: 'HFarm02' }).where('id', '=', groups.old).execute();
      await t.db.updateTable('sub_accounts').set({ account_name: 'HFarm02' }).where('id', '=', subs.hfarm02).execute();
    }
  });

  // ─── poolSubAccountQuery ───

  it('poolSubAccountQuery: the farm\'s sub-accounts by name with id, accountName, poolName and coinType — never a password', async () => {
    const res = await admin.get('/api/minerv2/poolSubAccountQuery', { agentKey: KEY });
    expect(res.statusCode, res.body).toBe(200);
    const list = body<SubAccountChoice[]>(res).data;
    expect(list).toEqual([
      { id: subs.hfarm01, accountName: 'hfarm01', poolName: 'Private pool', coinType: 'BTC' },
      { id: subs.hfarm02, accountName: 'HFarm02', poolName: 'Private pool', coinType: 'BTC' },
      { id: subs.zeta, accountName: 'zeta_1', poolName: 'ViaBTC', coinType: 'LTC' },
    ]);
    expect(res.body).not.toContain(POOL_SECRET);
    expect(res.body).not.toMatch(/password/i);
    expect(res.body).not.toContain('sealed');
  });

  it('poolSubAccountQuery: keyword narrows by account or pool name, case-insensitive, % and _ taken literally', async () => {
    const names = async (keyword: string) =>
      body<SubAccountChoice[]>(await admin.get('/api/minerv2/poolSubAccountQuery', { agentKey: KEY, keyword })).data.map((s) => s.accountName);
    expect(await names('HFARM')).toEqual(['hfarm01', 'HFarm02']);
    expect(await names('  farm02 ')).toEqual(['HFarm02']);
    expect(await names('viabtc')).toEqual(['zeta_1']);
    expect(await names('private')).toEqual(['hfarm01', 'HFarm02']);
    expect(await names('a_1')).toEqual(['zeta_1']);
    expect(await names('_')).toEqual(['zeta_1']);
    expect(await names('%')).toEqual([]);
    expect(await names('')).toHaveLength(3);
    expect(await names('other')).toEqual([]); // the other farm's sub-account
  });

  it('poolSubAccountQuery: at most 200', async () => {
    await t.db
      .insertInto('sub_accounts')
      .values(Array.from({ length: 205 }, (_, i) => ({ agent_key: BIG, account_name: `acct${String(i).padStart(3, '0')}`, pool_name: 'Private pool', coin_type: 'BTC', observer_url: 'https://observer.example.com/', password_enc: 'sealed' })))
      .execute();
    const list = body<SubAccountChoice[]>(await admin.get('/api/minerv2/poolSubAccountQuery', { agentKey: BIG })).data;
    expect(list).toHaveLength(200);
    expect(list[0]?.accountName).toBe('acct000');
    expect(list[199]?.accountName).toBe('acct199');
    expect(body<SubAccountChoice[]>(await admin.get('/api/minerv2/poolSubAccountQuery', { agentKey: BIG, keyword: 'acct20' })).data.map((s) => s.accountName)).toEqual([
      'acct200',
      'acct201',
      'acct202',
      'acct203',
      'acct204',
    ]);
  });

  it('pool data needs the miner list key (10000): the pool-settings keys alone get 403', async () => {
    const poolsOnly = (await createMember(admin, 'pq-pools-only', [81000, 81500], [KEY])).client;
    const miners = (await createMember(admin, 'pq-miners', [10000], [KEY])).client;
    for (const url of ['/api/minerv2/poolQuery', '/api/minerv2/poolSubAccountQuery']) {
      expect((await poolsOnly.get(url, { agentKey: KEY })).statusCode, url).toBe(403);
      const res = await miners.get(url, { agentKey: KEY });
      expect(res.statusCode, `${url} ${res.body}`).toBe(200);
      expect(body<unknown[]>(res).data.length, url).toBeGreaterThan(0);
    }
  });

  it("pool data: a member of another farm gets 403 and nothing of this farm's", async () => {
    const outsider = (await createMember(admin, 'pq-outsider', [10000, 81000], [OTHER])).client;
    for (const url of ['/api/minerv2/poolQuery', '/api/minerv2/poolSubAccountQuery']) {
      const res = await outsider.get(url, { agentKey: KEY });
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('Group New');
      expect(res.body).not.toContain('hfarm01');
      expect((await outsider.get(url, { agentKey: OTHER })).statusCode, url).toBe(200);
    }
  });

  it('bad input: a missing agentKey or an over-long keyword is refused with a localised message, and nothing changes', async () => {
    const before = [await count('sub_accounts'), await count('pool_groups'), await count('approval_settings')];
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    const ru = new Client(t.app, 'ru');
    ru.cookie = admin.cookie;
    for (const url of ['/api/minerv2/poolQuery', '/api/minerv2/poolSubAccountQuery', '/api/options/auditorList']) {
      const en = await admin.get(url);
      expect(en.statusCode, url).toBe(400);
      expect(body<{ fields: Record<string, string> }>(en)).toMatchObject({ msg: 'agentKey is required', data: { fields: { agentKey: 'agentKey is required' } } });
      const zhRes = await zh.get(url);
      expect(zhRes.statusCode, url).toBe(400);
      expect(body(zhRes).msg).toBe('agentKey 必填');
      expect(body(await ru.get(url)).msg).toBe('Укажите agentKey');
    }
    const long = await admin.get('/api/minerv2/poolSubAccountQuery', { agentKey: KEY, keyword: 'k'.repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(body(long).msg).toBe('keyword: At most 64 characters');
    expect(body(await zh.get('/api/minerv2/poolSubAccountQuery', { agentKey: KEY, keyword: 'k'.repeat(65) })).msg).toBe('keyword: 最多 64 个字符');
    expect([await count('sub_accounts'), await count('pool_groups'), await count('approval_settings')]).toEqual(before);
  });

  // ─── auditorList ───

  it('auditorList: enabled members of the farm and administrators with an e-mail, as "user (masked e-mail)", by name', async () => {
    const withMail = await createMember(admin, 'pq-approver', [10000], [KEY]);
    await withMail.client.post('/api/userv2/bindEmail', { email: 'zhang.wei@farm.example' });
    await createMember(admin, 'pq-no-mail', [10000], [KEY]);
    const elsewhere = await createMember(admin, 'pq-elsewhere', [10000], [OTHER]);
    await elsewhere.client.post('/api/userv2/bindEmail', { email: 'elsewhere@farm.example' });
    const gone = await createMember(admin, 'pq-disabled', [10000], [KEY]);
    await gone.client.post('/api/userv2/bindEmail', { email: 'gone@farm.example' });
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', gone.userId).execute();

    const list = async (agentKey = KEY) => {
      const res = await admin.get('/api/options/auditorList', { agentKey });
      expect(res.statusCode, res.body).toBe(200);
      return body<Option[]>(res).data;
    };
    // The administrator has no e-mail yet: not offered (the setting would refuse it).
    expect(await list()).toEqual([{ text: 'pq-approver (z***@farm.example)', value: withMail.userId }]);
    await admin.post('/api/userv2/bindEmail', { email: 'root@hashfield.example' });
    const adminId = (await t.db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;
    const offered = await list();
    expect(offered).toEqual([
      { text: 'admin (r***@hashfield.example)', value: adminId },
      { text: 'pq-approver (z***@farm.example)', value: withMail.userId },
    ]);
    expect(JSON.stringify(offered)).not.toContain('zhang.wei');
    expect((await list(OTHER)).map((o) => o.text)).toEqual(['admin (r***@hashfield.example)', 'pq-elsewhere (e***@farm.example)']);
    // Everyone offered is accepted by the setting; one not offered (no e-mail) is refused.
    for (const o of offered) expect((await admin.post('/api/approval/setting', { agentKey: KEY, approverId: o.value, roleIds: '' })).statusCode).toBe(200);
    const noMail = (await t.db.selectFrom('users').select('id').where('user_name', '=', 'pq-no-mail').executeTakeFirstOrThrow()).id;
    expect(body<{ fields: Record<string, string> }>(await admin.post('/api/approval/setting', { agentKey: KEY, approverId: noMail, roleIds: '' })).data.fields.approverId).toMatch(/e-mail/);
  });

  it('auditorList needs the farm settings key (80000) and membership of the farm', async () => {
    const minersOnly = (await createMember(admin, 'pq-al-miners', [10000], [KEY])).client;
    expect((await minersOnly.get('/api/options/auditorList', { agentKey: KEY })).statusCode).toBe(403);
    const settings = (await createMember(admin, 'pq-al-settings', [80000], [KEY])).client;
    const own = await settings.get('/api/options/auditorList', { agentKey: KEY });
    expect(own.statusCode, own.body).toBe(200);
    expect(body<Option[]>(own).data.length).toBeGreaterThan(0);
    const outsider = (await createMember(admin, 'pq-al-outsider', [80000], [OTHER])).client;
    const res = await outsider.get('/api/options/auditorList', { agentKey: KEY });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('pq-approver');
  });
});
