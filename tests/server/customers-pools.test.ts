import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, agentAuthorization } from '@shared/schemas/agent-uplink';
import type { Customer } from '@shared/schemas/customer';
import type { HostingInfoRow, ObserverTestResult, PoolGroup, PoolWhitelistEntry, SubAccount } from '@shared/schemas/pool';
import type { Page } from '@shared/schemas/common';
import { type Fleet, startFleet } from '@sim/fleet';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin } from './harness';

type Fields = { fields: Record<string, string> };
const KEY = 'cp-a';
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

const hostingRow = (extra: Record<string, unknown> = {}) => ({ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerModel: 'S21', minerNum: 10, ...extra });
const goodCustomer = (extra: Record<string, unknown> = {}) => ({
  agentKey: KEY,
  name: 'Acme Hosting',
  contract: 'Li Wei',
  email: 'ops@acme.example',
  mobile: '',
  areaCode: '',
  electricUnit: 'CNY',
  electricPrice: '0.35',
  hostingResult: JSON.stringify([hostingRow(), hostingRow({ type: 'Antminer S19j Pro', hashRate: 100, minerNum: 5 })]),
  ...extra,
});

/** A local port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('customers, sub-accounts, pool groups, whitelist', () => {
  let t: TestApp;
  let admin: Client;
  let farmSecret = '';
  let fleet: Fleet;
  let observer = '';
  beforeAll(async () => {
    t = await createTestApp({ secretKey: SECRET_KEY });
    admin = await setupAdmin(t.app);
    farmSecret = (await createFarm(admin, KEY)).secret;
    fleet = await startFleet({ miners: 20, cidr: '127.41.0.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 7 });
    observer = `http://127.0.0.1:${fleet.ports.control}/observer/hfarm01?coin=BTC`;
  }, 60_000);
  afterAll(async () => {
    await fleet.close();
    await t.close();
  });

  const count = async (table: 'customers' | 'sub_accounts' | 'pool_groups' | 'pool_whitelist') =>
    Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const expectRefused = async (url: string, cases: [Record<string, unknown>, string, string][], table: Parameters<typeof count>[0]) => {
    const before = await count(table);
    for (const [payload, field, message] of cases) {
      const res = await admin.post(url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const b = body<Fields>(res);
      expect(b.data.fields[field], `${JSON.stringify(payload)} → ${res.body}`).toBe(message);
    }
    expect(await count(table)).toBe(before);
  };

  let customer: Customer;

  it('customers: saves a valid customer; the list pages it with the price in the currency\'s decimals', async () => {
    const res = await admin.post('/api/customer/save', goodCustomer({ mobile: '13800138000', areaCode: '' }));
    expect(res.statusCode, res.body).toBe(200);
    customer = body<Customer>(res).data;
    expect(customer).toMatchObject({ name: 'Acme Hosting', contract: 'Li Wei', email: 'ops@acme.example', mobile: '13800138000', areaCode: '86', electricUnit: 'CNY', electricPrice: '0.35' });
    expect(customer.hostingResult).toHaveLength(2);
    const page = body<Page<Customer>>(await admin.get('/api/customer/list', { agentKey: KEY, page: '1', pageSize: '1000' })).data;
    expect(page).toMatchObject({ total: 1, curPage: 1, pageSize: 1000 });
    const usd = body<Customer>(await admin.post('/api/customer/save', goodCustomer({ id: customer.id, electricUnit: 'USD', electricPrice: '0.0525' }))).data;
    expect(usd).toMatchObject({ id: customer.id, electricUnit: 'USD', electricPrice: '0.0525' });
  });

  it('customers: refuses every broken rule with the exact message and saves nothing', async () => {
    const rows = (r: unknown[]) => JSON.stringify(r);
    await expectRefused(
      '/api/customer/save',
      [
        [goodCustomer({ name: '' }), 'name', 'enter the customer name'],
        [goodCustomer({ name: 'x'.repeat(51) }), 'name', 'the customer name has at most 50 characters'],
        [goodCustomer({ contract: ' ' }), 'contract', 'enter the contact person'],
        [goodCustomer({ contract: 'y'.repeat(51) }), 'contract', 'the contact person has at most 50 characters'],
        [goodCustomer({ email: '', mobile: '' }), 'email', 'enter a contact (email or mobile)'],
        [goodCustomer({ email: 'not-an-email' }), 'email', 'enter a correctly formatted email address'],
        [goodCustomer({ email: '', mobile: '123456' }), 'mobile', 'enter a correctly formatted phone number'],
        [goodCustomer({ email: '', mobile: '123456789012' }), 'mobile', 'enter a correctly formatted phone number'],
        [goodCustomer({ email: 'a@b.example,c@d.example', mobile: '13800138000' }), 'mobile', 'at most two contacts'],
        [goodCustomer({ electricPrice: '' }), 'electricPrice', 'enter the electricity price'],
        [goodCustomer({ electricPrice: '0.001' }), 'electricPrice', 'the CNY price must be at least 0.01'],
        [goodCustomer({ electricPrice: '0.123' }), 'electricPrice', 'the CNY price has at most 2 decimals'],
        [goodCustomer({ electricUnit: 'USD', electricPrice: '0.00001' }), 'electricPrice', 'the USD price must be at least 0.0001'],
        [goodCustomer({ electricUnit: 'USD', electricPrice: '0.12345' }), 'electricPrice', 'the USD price has at most 4 decimals'],
        [goodCustomer({ electricUnit: 'EUR' }), 'electricUnit', 'choose the currency'],
        [goodCustomer({ hostingResult: '[]' }), 'hostingResult', 'at least one'],
        [goodCustomer({ hostingResult: rows([hostingRow({ type: '' })]) }), 'hostingResult.0.type', 'choose the miner type'],
        [goodCustomer({ hostingResult: rows([hostingRow({ coinType: '' })]) }), 'hostingResult.0.coinType', 'please choose coin'],
        [goodCustomer({ hostingResult: rows([hostingRow({ hashRate: '' })]) }), 'hostingResult.0.hashRate', 'enter a hashrate above 0'],
        [goodCustomer({ hostingResult: rows([hostingRow({ minerNum: -1 })]) }), 'hostingResult.0.minerNum', 'the number of miners must be a whole number of at least 0'],
        [goodCustomer({ hostingResult: rows([hostingRow({ minerNum: 1.5 })]) }), 'hostingResult.0.minerNum', 'the number of miners must be a whole number of at least 0'],
      ],
      'customers',
    );
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    expect(body(await zh.post('/api/customer/save', goodCustomer({ email: 'bad' }))).msg).toBe('请输入正确格式的邮箱地址');
  });

  it('observer test: a real simulator observer page answers status 0 with hashP and unit (JSON and HTML)', async () => {
    const res = await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: observer, coinType: 'BTC' });
    expect(res.statusCode, res.body).toBe(200);
    const data = body<ObserverTestResult>(res).data;
    expect(data.status).toBe(0);
    expect(typeof data.hashP).toBe('number');
    expect(['GH/s', 'TH/s', 'PH/s', 'EH/s']).toContain(data.unit);
    const html = body<ObserverTestResult>(await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: `${observer}&format=html`, coinType: 'BTC' })).data;
    expect(html).toMatchObject({ status: 0, unit: data.unit });
  });

  it('observer test: an unknown account or a closed port answers status 1 with the failure message', async () => {
    const unknown = body<ObserverTestResult>(
      await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: `http://127.0.0.1:${fleet.ports.control}/observer/nobody?coin=BTC`, coinType: 'BTC' }),
    ).data;
    expect(unknown).toMatchObject({ status: 1, msg: 'connection failed, check configuration data' });
    const closed = body<ObserverTestResult>(
      await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: `http://127.0.0.1:${await closedPort()}/observer/hfarm01?coin=BTC`, coinType: 'BTC' }),
    ).data;
    expect(closed.status).toBe(1);
  });

  it('observer test: follows redirects to the page', async () => {
    const hop = http.createServer((_req, res) => res.writeHead(302, { location: observer }).end());
    await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hop.address() as net.AddressInfo).port}/to-observer`;
      const data = body<ObserverTestResult>(await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: url, coinType: 'BTC' })).data;
      expect(data.status).toBe(0);
    } finally {
      await new Promise<void>((resolve) => hop.close(() => resolve()));
    }
  });

  it('observer test: without OBSERVER_ALLOW_PRIVATE, a loopback, LAN or metadata address is never fetched', async () => {
    const strict = await createTestApp({ secretKey: SECRET_KEY, observerAllowPrivate: false });
    try {
      const a = await setupAdmin(strict.app);
      await createFarm(a, KEY);
      let hits = 0;
      const lan = http.createServer((_req, res) => {
        hits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":0,"hashP":1,"unit":"TH/s"}');
      });
      await new Promise<void>((resolve) => lan.listen(0, '127.0.0.1', resolve));
      try {
        const port = (lan.address() as net.AddressInfo).port;
        for (const observerUrl of [observer, `http://127.0.0.1:${port}/o`, `http://localhost:${port}/o`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/o']) {
          const data = body<ObserverTestResult>(await a.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl, coinType: 'BTC' })).data;
          expect(data, observerUrl).toMatchObject({ status: 1, msg: 'connection failed, check configuration data' });
        }
        expect(hits).toBe(0);
      } finally {
        await new Promise<void>((resolve) => lan.close(() => resolve()));
      }
    } finally {
      await strict.close();
    }
  });

  it('observer test: refuses a bad link or a missing coin', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ observerUrl: '', coinType: 'BTC' }, 'observerUrl', 'please enter observer link'],
      [{ observerUrl: 'not a url', coinType: 'BTC' }, 'observerUrl', 'invalid url'],
      [{ observerUrl: 'ftp://pool.example/x', coinType: 'BTC' }, 'observerUrl', 'invalid url'],
      [{ observerUrl: 'https://pool.dhs.example/observer', coinType: 'BTC' }, 'observerUrl', 'observer link contains sensitive words'],
      [{ observerUrl: 'https://observer.gov.example/a', coinType: 'BTC' }, 'observerUrl', 'observer link contains sensitive words'],
      [{ observerUrl: 'https://my.hosted-miners.example/watch?access_key=abc', coinType: 'BTC' }, 'observerUrl', 'hosted site link misconfigured: it needs the access_key and prefix parameters'],
      [{ observerUrl: observer, coinType: '' }, 'coinType', 'please choose coin'],
    ];
    for (const [query, field, message] of cases) {
      const res = await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, ...query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(body<Fields>(res).data.fields[field], JSON.stringify(query)).toBe(message);
    }
  });

  let sub: SubAccount;

  it('sub-accounts: saving needs a successful test of the link and coin; the password is encrypted at rest', async () => {
    const base = { agentKey: KEY, accountName: 'hfarm02', password: 'pool-pass-123', poolName: 'Hashfield Pool', coinType: 'BTC' };
    const untested = `http://127.0.0.1:${fleet.ports.control}/observer/hfarm02?coin=BTC`;
    await expectRefused(
      '/api/subAccountV2/save',
      [
        [{ ...base, observerUrl: untested }, 'observerUrl', 'please test observer link'],
        [{ ...base, observerUrl: '' }, 'observerUrl', 'please enter observer link'],
        [{ ...base, observerUrl: 'nope' }, 'observerUrl', 'invalid url'],
        [{ ...base, coinType: '', observerUrl: untested }, 'coinType', 'please choose coin'],
        [{ ...base, accountName: '', observerUrl: untested }, 'accountName', 'enter the sub-account name'],
        [{ ...base, password: '', observerUrl: untested }, 'password', 'Enter the password'],
        [{ ...base, poolName: '', observerUrl: untested }, 'poolName', 'choose the pool'],
      ],
      'sub_accounts',
    );
    // A test of the same link with another coin does not count.
    const test = body<ObserverTestResult>(await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: untested, coinType: 'BCH' })).data;
    expect(test.status).toBe(1);
    expect((await admin.post('/api/subAccountV2/save', { ...base, observerUrl: untested, coinType: 'BCH' })).statusCode).toBe(400);

    expect(body<ObserverTestResult>(await admin.get('/api/subAccountV2/testObserverUrl', { agentKey: KEY, observerUrl: untested, coinType: 'BTC' })).data.status).toBe(0);
    const res = await admin.post('/api/subAccountV2/save', { ...base, observerUrl: untested });
    expect(res.statusCode, res.body).toBe(200);
    sub = body<SubAccount>(res).data;
    expect(sub).toMatchObject({ accountName: 'hfarm02', hasPassword: true });
    expect(res.body).not.toContain('pool-pass-123');
    const row = await t.db.selectFrom('sub_accounts').select('password_enc').where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(row.password_enc).not.toContain('pool-pass-123');
    expect(row.password_enc).toMatch(/^v1:/);
    const list = await admin.get('/api/subAccountV2/pagelist', { agentKey: KEY, page: '1', pageSize: '1000' });
    expect(body<Page<SubAccount>>(list).data.total).toBe(1);
    expect(list.body).not.toContain('pool-pass-123');
    expect(list.body).not.toContain(row.password_enc);
    // An edit keeping the link, coin and password needs no new test.
    const edit = await admin.post('/api/subAccountV2/save', { ...base, id: sub.id, password: '', accountName: 'hfarm02-main', observerUrl: untested });
    expect(body<SubAccount>(edit).data).toMatchObject({ id: sub.id, accountName: 'hfarm02-main', hasPassword: true });
    const after = await t.db.selectFrom('sub_accounts').select('password_enc').where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(after.password_enc).toBe(row.password_enc);
  });

  it('sub-accounts: an exempt pool saves without a test', async () => {
    const res = await admin.post('/api/subAccountV2/save', { agentKey: KEY, accountName: 'own', password: 'x1', poolName: 'Private pool', coinType: 'BTC', observerUrl: 'http://10.0.0.9/observer/own' });
    expect(res.statusCode, res.body).toBe(200);
    const hosting = body<{ exemptPools: string[] }>(await admin.get('/api/subAccountV2/hosting')).data;
    expect(hosting.exemptPools).toContain('Private pool');
  });

  let group: PoolGroup;

  it('pool groups: hosting rows come from the customer, minerNum is capped by what is still free', async () => {
    const info = body<HostingInfoRow[]>(await admin.get('/api/poolgroup/hostingInfo', { agentKey: KEY, customerId: customer.id })).data;
    expect(info.map((r) => [r.type, r.hashRate, r.available])).toEqual([
      ['Antminer S21', 200, 10],
      ['Antminer S19j Pro', 100, 5],
    ]);
    const payload = {
      agentKey: KEY,
      name: 'Group A',
      customerId: customer.id,
      pool1Url: '  stratum+tcp://btc.hashfield-pool.com:3333  ',
      subAccount1Id: sub.id,
      poolGroupHosting: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerNum: 6 }]),
    };
    const res = await admin.post('/api/poolgroup/save', payload);
    expect(res.statusCode, res.body).toBe(200);
    group = body<PoolGroup>(res).data;
    expect(group).toMatchObject({ pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333', pool1User: 'hfarm02-main', customerName: 'Acme Hosting' });
    const after = body<HostingInfoRow[]>(await admin.get('/api/poolgroup/hostingInfo', { agentKey: KEY, customerId: customer.id })).data;
    expect(after[0]?.available).toBe(4);
    // Editing the group itself may keep its own miners.
    const own = body<HostingInfoRow[]>(await admin.get('/api/poolgroup/hostingInfo', { agentKey: KEY, customerId: customer.id, poolGroupId: group.id })).data;
    expect(own[0]?.available).toBe(10);
    expect(body<PoolGroup[]>(await admin.get('/api/poolgroup/list', { agentKey: KEY })).data).toHaveLength(1);
  });

  it('pool groups: refuses every broken rule and saves nothing', async () => {
    const rows = (r: unknown[]) => JSON.stringify(r);
    const good = {
      agentKey: KEY,
      name: 'Group B',
      customerId: customer.id,
      pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
      subAccount1Id: sub.id,
      poolGroupHosting: rows([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, hashRateUnit: 'TH/s', minerNum: 1 }]),
    };
    await expectRefused(
      '/api/poolgroup/save',
      [
        [{ ...good, name: '' }, 'name', 'enter the pool group name'],
        [{ ...good, customerId: '' }, 'customerId', 'choose the customer'],
        [{ ...good, pool1Url: '' }, 'pool1Url', 'enter the pool address'],
        [{ ...good, pool1Url: 'http://btc.pool.example:3333' }, 'pool1Url', 'pool address format incorrect'],
        [{ ...good, pool1Url: 'btc.pool.example:3333' }, 'pool1Url', 'pool address format incorrect'],
        [{ ...good, pool1Url: 'stratum+tcp://btc.pool.gov:3333' }, 'pool1Url', 'pool address contains sensitive words'],
        [{ ...good, pool2Url: 'stratum+tcp://dhs.example:3333' }, 'pool2Url', 'pool address contains sensitive words'],
        [{ ...good, pool3Url: 'tcp://x:1' }, 'pool3Url', 'pool address format incorrect'],
        [{ ...good, subAccount1Id: '' }, 'subAccount1Id', 'choose the sub-account'],
        [{ ...good, poolGroupHosting: '[]' }, 'poolGroupHosting', 'at least one'],
        [
          { ...good, poolGroupHosting: rows([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, minerNum: 1 }, { type: 'Antminer S21', coinType: 'BTC', hashRate: 200, minerNum: 1 }]) },
          'poolGroupHosting.1.hashRate',
          'the same type and hashrate cannot repeat',
        ],
        [{ ...good, poolGroupHosting: rows([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, minerNum: 5 }]) }, 'poolGroupHosting.0.minerNum', "more than the customer's available miners"],
        [{ ...good, poolGroupHosting: rows([{ type: 'Antminer T21', coinType: 'BTC', hashRate: 190, minerNum: 1 }]) }, 'poolGroupHosting.0.type', "this type and hashrate are not in the customer's hosting"],
      ],
      'pool_groups',
    );
  });

  it('customers and sub-accounts in use cannot be deleted; a free one can', async () => {
    expect((await admin.post('/api/customer/delete', { agentKey: KEY, id: customer.id })).statusCode).toBe(409);
    expect((await admin.post('/api/subAccountV2/delete', { agentKey: KEY, id: sub.id })).statusCode).toBe(409);
    expect((await admin.post('/api/poolgroup/delete', { agentKey: KEY, poolGroupId: group.id })).statusCode).toBe(200);
    expect((await admin.post('/api/customer/delete', { agentKey: KEY, id: customer.id })).statusCode).toBe(200);
    expect(await count('customers')).toBe(0);
  });

  it('whitelist: 1 to 3 well-formed pools per entry, and it reaches the agent config', async () => {
    await expectRefused(
      '/api/poolWhitelist/save',
      [
        [{ agentKey: KEY, poolUrls: '' }, 'poolUrls', 'enter the pool address'],
        [{ agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1,http://b.example:2' }, 'poolUrls', 'pool address format incorrect'],
        [{ agentKey: KEY, poolUrls: 'stratum+tcp://a.gov:1' }, 'poolUrls', 'pool address contains sensitive words'],
        [{ agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1,stratum+tcp://b.example:1,stratum+tcp://c.example:1,stratum+tcp://d.example:1' }, 'poolUrls', 'at most 3 pools per whitelist entry'],
      ],
      'pool_whitelist',
    );
    const saved = body<PoolWhitelistEntry>(await admin.post('/api/poolWhitelist/save', { agentKey: KEY, poolUrls: ' stratum+tcp://btc.hashfield-pool.com:3333 , stratum+ssl://btc-backup.hashfield-pool.com:443' })).data;
    expect(saved.poolUrls).toBe('stratum+tcp://btc.hashfield-pool.com:3333,stratum+ssl://btc-backup.hashfield-pool.com:443');
    const cfg = await t.app.inject({ method: 'GET', url: `${AGENT_UPLINK_PREFIX}/config`, headers: { authorization: agentAuthorization(KEY, farmSecret) } });
    expect(cfg.statusCode, cfg.body).toBe(200);
    expect(body<{ poolWhitelist: string[][] }>(cfg).data.poolWhitelist).toEqual([['stratum+tcp://btc.hashfield-pool.com:3333', 'stratum+ssl://btc-backup.hashfield-pool.com:443']]);
    expect((await admin.post('/api/poolWhitelist/delete', { agentKey: KEY, id: saved.id })).statusCode).toBe(200);
    expect(body<PoolWhitelistEntry[]>(await admin.get('/api/poolWhitelist/list', { agentKey: KEY })).data).toEqual([]);
  });

  it('option lists are backed by real data', async () => {
    const get = async (name: string) => body<{ text: string; value: string }[]>(await admin.get(`/api/options/${name}`, { agentKey: KEY })).data;
    expect((await get('areaCode'))[0]?.value).toBe('86');
    expect((await get('currency')).map((o) => o.value)).toEqual(['USD', 'CNY']);
    expect(await get('coinType')).toContainEqual({ text: 'BTC', value: 'BTC' });
    expect((await get('minerModel')).map((o) => o.value)).toContain('Antminer S21');
    expect((await get('poolAccount')).map((o) => o.value)).toContain(sub.id);
    expect((await get('accountName')).map((o) => o.value)).toContain('hfarm02-main');
    expect((await get('poolName')).map((o) => o.value)).toContain('Hashfield Pool');
    expect(await get('customer')).toEqual([]);
  });

  it('accepts JSON bodies with hostingResult as an array', async () => {
    const res = await admin.request({
      method: 'POST',
      url: '/api/customer/save',
      payload: { ...goodCustomer({ name: 'Json Co' }), hostingResult: [hostingRow()] },
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<Customer>(res).data.hostingResult).toEqual([hostingRow()]);
  });

  it('needs the menu key to read and the operation key to write; other farms stay apart', async () => {
    await createFarm(admin, 'cp-b');
    const viewer = (await createMember(admin, 'cp-viewer', [61000, 81000], [KEY])).client;
    expect((await viewer.get('/api/customer/list', { agentKey: KEY })).statusCode).toBe(200);
    expect((await viewer.get('/api/poolgroup/list', { agentKey: KEY })).statusCode).toBe(200);
    expect((await viewer.post('/api/customer/save', goodCustomer({ name: 'Nope' }))).statusCode).toBe(403);
    expect((await viewer.post('/api/poolWhitelist/save', { agentKey: KEY, poolUrls: 'stratum+tcp://a.example:1' })).statusCode).toBe(403);
    expect((await viewer.get('/api/customer/list', { agentKey: 'cp-b' })).statusCode).toBe(403);
    const outsider = (await createMember(admin, 'cp-outsider', [10000], [KEY])).client;
    expect((await outsider.get('/api/subAccountV2/pagelist', { agentKey: KEY })).statusCode).toBe(403);
    // A sub-account of farm A cannot be used by a pool group of farm B.
    const other = body<Customer>(await admin.post('/api/customer/save', goodCustomer({ agentKey: 'cp-b', name: 'B Co' }))).data;
    const res = await admin.post('/api/poolgroup/save', {
      agentKey: 'cp-b',
      name: 'Cross',
      customerId: other.id,
      pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
      subAccount1Id: sub.id,
      poolGroupHosting: JSON.stringify([{ type: 'Antminer S21', coinType: 'BTC', hashRate: 200, minerNum: 1 }]),
    });
    expect(res.statusCode).toBe(400);
    expect(body<Fields>(res).data.fields.subAccount1Id).toBe('choose the sub-account');
    // An observer test on farm A does not let farm B save the link.
    const cross = await admin.post('/api/subAccountV2/save', { agentKey: 'cp-b', accountName: 'x', password: 'p', poolName: 'AntPool', coinType: 'BTC', observerUrl: observer });
    expect(body<Fields>(cross).data.fields.observerUrl).toBe('please test observer link');
  });
});
