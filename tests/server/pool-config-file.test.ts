/**
 * The farm's pool configuration file: download (columns, current pools, IP order, localised header, sample row of an
 * empty farm), upload (change / same / unknown / invalid with messages, unsupported format, too many rows), apply
 * (code required / wrong → nothing queued; one batchSetPool batch per pool set with its targets and params; a second
 * apply refused; only the uploader; the miners-only key; another farm's member; a role needing approval refused).
 * Verification codes are written to the database as sendCode stores them (hash of user id and code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { readSheet } from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { PERMISSION } from '@shared/menu-catalogue';
import type { PoolConfigApplyResult, PoolConfigUploadResult } from '@shared/schemas/pool-config-file';
import { pruneBatchLeftovers } from '@server/domains/batch/prune';
import { sha256 } from '@server/security';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, multipart, setupAdmin, uploadCycle } from './harness';

const KEY = 'pools-a';
const OTHER = 'pools-b';
const FLEET = 6;
const ip = (i: number) => minerIp(i);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const POOL_A = 'stratum+tcp://cust-a.pool.example:3333';
const POOL_B = 'stratum+tcp://cust-b.pool.example:443';
const HEADER = ['IP', 'SN', 'Model', 'Pool 1 URL', 'Pool 1 worker', 'Pool 2 URL', 'Pool 2 worker', 'Pool 3 URL', 'Pool 3 worker'];

/** The pools minerSnapshot gives miner i (tests/support/miner-snapshots.ts). */
function currentPools(i: number): string[] {
  const worker = `farm.${ip(i).replace(/\./g, 'x')}`;
  return ['stratum+tcp://btc.pool-one.example:3333', worker, 'stratum+tcp://btc.pool-two.example:443', worker, 'stratum+tcp://btc.pool-three.example:25', worker];
}

describe('pool configuration file', () => {
  let t: TestApp;
  let admin: Client;
  let adminId: string;

  const taskCount = async () => Number((await t.db.selectFrom('agent_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const planCount = async () => Number((await t.db.selectFrom('pool_config_plans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const giveCode = async (userId: string, code = '424242') => {
    await t.db.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
    await t.db
      .insertInto('verification_codes')
      .values({ user_id: userId, purpose: 'batch', channel: 'email', code_hash: sha256(`${userId}:${code}`), expires_at: new Date(Date.now() + 600_000) })
      .execute();
    return code;
  };
  const download = (c: Client, query: Record<string, string> = {}) => c.get('/api/minerv2/getuploadPoolConfigFile', { agentKey: KEY, ...query });
  const sheetOf = async (buf: Buffer) => ((await readSheet(buf)) as unknown[][]).map((r) => r.map((v) => (v === null ? '' : String(v))));
  const upload = (c: Client, file: { name: string; content: Buffer; type: string }, agentKey = KEY) => {
    const m = multipart({ agentKey, fileName: file.name }, file);
    return c.request({ method: 'POST', url: '/api/minerv2/uploadPoolConfig', payload: m.payload, headers: m.headers });
  };
  const xlsxOf = async (rows: string[][]) => ({ name: 'pools.xlsx', type: XLSX, content: await writeXlsxFile([HEADER, ...rows]).toBuffer() });
  const apply = (c: Client, fileId: string, code?: string) => c.post('/api/minerv2/applyPoolConfig', { agentKey: KEY, fileId, ...(code === undefined ? {} : { code }) });

  /** A file changing miners 0 and 1 to pool A, 2 to pool B, leaving 3 as it is, plus unknown and invalid rows. */
  const editedRows = (): string[][] => [
    [ip(0), '', '', POOL_A, 'custa.w0', '', '', '', ''],
    [ip(1), '', '', POOL_A, 'custa.w0', '', '', '', ''],
    [ip(2), '', '', POOL_B, 'custb.w2', POOL_A, 'custa.w2', '', ''],
    [ip(3), '', '', ...currentPools(3)],
    ['10.99.0.1', '', '', POOL_A, 'x', '', '', '', ''],
    ['not-an-ip', '', '', POOL_A, 'x', '', '', '', ''],
    [ip(4), '', '', 'stratum+tcp://pool.gov.example:3333', 'w', '', '', '', ''],
    [ip(5), '', '', POOL_A, '', '', '', '', ''],
    [ip(5), '', '', 'pool.example:3333', 'w', '', '', '', ''],
  ];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    adminId = (await t.db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id;
    const farm = await createFarm(admin, KEY);
    await createFarm(admin, OTHER);
    const takenAt = new Date().toISOString();
    // Uploaded in reverse order: the file must still be in IP order.
    await uploadCycle(t.app, farm, 1, Array.from({ length: FLEET }, (_, i) => minerSnapshot(FLEET - 1 - i, { takenAt })));
  });
  afterAll(async () => {
    await t.close();
  });

  it('downloads the miners in IP order with their current pools, as an attachment', async () => {
    const res = await download(admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="pool-config-pools-a-\d{8}-\d{4}\.xlsx"$/);
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]).toEqual(HEADER);
    expect(rows.length).toBe(FLEET + 1);
    expect(rows.slice(1).map((r) => r[0])).toEqual(Array.from({ length: FLEET }, (_, i) => ip(i)));
    expect(rows[1]!.slice(3)).toEqual(currentPools(0));
    expect(rows[1]![2]).not.toBe('');

    const some = await sheetOf((await download(admin, { ips: `${ip(4)},${ip(1)}` })).rawPayload);
    expect(some.slice(1).map((r) => r[0])).toEqual([ip(1), ip(4)]);

    const bad = await download(admin, { ips: '10.0.0.300' });
    expect(bad.statusCode).toBe(400);

    // A selection of "all matching" (a hosting customer's miners can be thousands): the filter, less the unticked.
    const models = await t.db.selectFrom('miners').select(['ip', 'model']).where('agent_key', '=', KEY).execute();
    const model = models[0]!.model!;
    const matching = models.filter((m) => m.model === model).map((m) => m.ip);
    expect(matching.length).toBeGreaterThan(2);
    const [unticked, ...kept] = [...matching].sort((a, b) => Number(a.split('.')[3]) - Number(b.split('.')[3]));
    const filtered = await download(admin, { filter: JSON.stringify({ model }), exclude: unticked! });
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect((await sheetOf(filtered.rawPayload)).slice(1).map((r) => r[0])).toEqual(kept);
    // One target at most; exclude only narrows a filter; a filter that is not the list's is refused.
    const refusals: Record<string, string>[] = [{ ips: ip(1), filter: JSON.stringify({ model }) }, { exclude: ip(1) }, { filter: '{"status":"asleep"}' }];
    for (const query of refusals) {
      const refused = await download(admin, query);
      expect(refused.statusCode, JSON.stringify(query)).toBe(400);
      expect(body(refused).code).toBe(1001);
    }
  });

  it('localises the header and gives an empty farm the header and one sample row', async () => {
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = admin.cookie;
    const rows = await sheetOf((await zh.get('/api/minerv2/getuploadPoolConfigFile', { agentKey: OTHER })).rawPayload);
    expect(rows.length).toBe(2);
    expect(rows[0]!.slice(0, 4)).toEqual(['IP', 'SN', '型号', '矿池1地址']);
    expect(rows[1]![0]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(rows[1]![3]).toMatch(/^stratum\+tcp:\/\//);
  });

  it('classifies the rows of an upload and keeps the plan', async () => {
    const res = await upload(admin, await xlsxOf(editedRows()));
    expect(res.statusCode, res.body).toBe(200);
    const r = body<PoolConfigUploadResult>(res).data;
    expect(r.counts).toEqual({ change: 3, same: 1, unknown: 1, invalid: 4 });
    expect(r.groups).toEqual([
      { pools: [{ url: POOL_A, user: 'custa.w0' }], count: 2 },
      {
        pools: [
          { url: POOL_B, user: 'custb.w2' },
          { url: POOL_A, user: 'custa.w2' },
        ],
        count: 1,
      },
    ]);
    expect(r.invalid).toEqual([
      { line: 7, ip: 'not-an-ip', field: 'ip', message: 'Enter a correct IP address' },
      { line: 8, ip: ip(4), field: 'pool1Url', message: 'pool address contains sensitive words' },
      { line: 9, ip: ip(5), field: 'pool1User', message: 'Enter the pool worker name' },
      { line: 10, ip: ip(5), field: 'pool1Url', message: 'pool address format incorrect' },
    ]);

    // The downloaded file uploaded unchanged: every row the same.
    const same = await upload(admin, { name: 'pools.xlsx', type: XLSX, content: (await download(admin)).rawPayload });
    expect(body<PoolConfigUploadResult>(same).data.counts).toEqual({ change: 0, same: FLEET, unknown: 0, invalid: 0 });

    // CSV, header in another language.
    const csv = `IP,SN,型号,矿池1地址,矿池1矿工名\n${ip(0)},,,${POOL_B},w\n`;
    const c = await upload(admin, { name: 'pools.csv', type: 'text/csv', content: Buffer.from(csv) });
    expect(body<PoolConfigUploadResult>(c).data.counts).toEqual({ change: 1, same: 0, unknown: 0, invalid: 0 });
  });

  it('refuses an unsupported format and more than 10,000 rows, storing nothing', async () => {
    const before = await planCount();
    const pdf = await upload(admin, { name: 'pools.pdf', type: 'application/pdf', content: Buffer.from('%PDF-1.4') });
    expect(pdf.statusCode).toBe(400);
    // The message names every format this file may have (CSV too, unlike an IP list).
    expect(body(pdf)).toMatchObject({ code: 1027, msg: 'Unsupported file format: upload an Excel (.xlsx, .xls), .csv or .txt file' });
    const binary = await upload(admin, { name: 'pools.xlsx', type: XLSX, content: Buffer.from([0x00, 0x01, 0x02, 0x03]) });
    expect(body(binary)).toMatchObject({ code: 1027, msg: 'Unsupported file format: upload an Excel (.xlsx, .xls), .csv or .txt file' });
    const lines = Array.from({ length: 10_001 }, (_, i) => `10.1.${Math.floor(i / 250)}.${(i % 250) + 1},,,${POOL_A},w`);
    const many = await upload(admin, { name: 'pools.csv', type: 'text/csv', content: Buffer.from(`${HEADER.join(',')}\n${lines.join('\n')}`) });
    expect(many.statusCode).toBe(400);
    expect(body(many)).toMatchObject({ code: 1028, msg: 'The file has 10001 rows; at most 10000 can be imported' });
    const ok = await upload(admin, { name: 'pools.csv', type: 'text/csv', content: Buffer.from(lines.slice(0, 10_000).join('\n')) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await planCount()).toBe(before + 1);
  });

  it('applies a plan once, with the code, as one batch per pool set', async () => {
    const fileId = body<PoolConfigUploadResult>(await upload(admin, await xlsxOf(editedRows()))).data.fileId;
    const before = await taskCount();

    const noCode = await apply(admin, fileId);
    expect(noCode.statusCode).toBe(400);
    expect(body(noCode).code).toBe(1020);
    await giveCode(adminId, '111111');
    const wrong = await apply(admin, fileId, '222222');
    expect(body(wrong).code).toBe(1021);
    expect(await taskCount()).toBe(before);

    const code = await giveCode(adminId);
    const res = await apply(admin, fileId, code);
    expect(res.statusCode, res.body).toBe(200);
    const r = body<PoolConfigApplyResult>(res).data;
    expect(r.batches.map((b) => [b.ips, b.pool1Url])).toEqual([
      [2, POOL_A],
      [1, POOL_B],
    ]);
    expect(r.refused).toEqual([]);
    const tasks = await t.db.selectFrom('agent_tasks').select(['id', 'op', 'batch_op', 'params', 'targets', 'created_by']).where('id', 'in', r.batches.map((b) => b.taskId)).execute();
    const a = tasks.find((x) => x.id === r.batches[0]!.taskId)!;
    const b = tasks.find((x) => x.id === r.batches[1]!.taskId)!;
    expect(a).toMatchObject({ op: 'set-pools', batch_op: 'batchSetPool', created_by: adminId });
    expect(a.params).toEqual({ pools: [{ url: POOL_A, user: 'custa.w0', password: 'x' }], workerSuffix: 'none' });
    expect((a.targets as { ip: string }[]).map((x) => x.ip).sort()).toEqual([ip(0), ip(1)].sort());
    expect(b.params).toEqual({
      pools: [
        { url: POOL_B, user: 'custb.w2', password: 'x' },
        { url: POOL_A, user: 'custa.w2', password: 'x' },
      ],
      workerSuffix: 'none',
    });
    expect((b.targets as { ip: string }[]).map((x) => x.ip)).toEqual([ip(2)]);
    expect(await taskCount()).toBe(before + 2);

    const again = await apply(admin, fileId, await giveCode(adminId));
    expect(again.statusCode).toBe(409);
    expect(body(again).code).toBe(1081);
    expect(await taskCount()).toBe(before + 2);
  });

  it('queues no batch and leaves the plan to apply again when the database fails part way', async () => {
    const fileId = body<PoolConfigUploadResult>(await upload(admin, await xlsxOf(editedRows()))).data.fileId;
    const before = await taskCount();
    // The second group's batch (pool B) fails in the database, after the first group's was written.
    await sql`create function fail_pool_b() returns trigger language plpgsql as $$
      begin if new.params::text like ${sql.lit(`%${POOL_B}%`)} then raise exception 'disk full (test)'; end if; return new; end $$`.execute(t.db);
    await sql`create trigger fail_pool_b before insert on agent_tasks for each row execute function fail_pool_b()`.execute(t.db);
    try {
      const failed = await apply(admin, fileId, await giveCode(adminId));
      expect(failed.statusCode).toBe(500);
      expect(await taskCount()).toBe(before);
      const plan = await t.db.selectFrom('pool_config_plans').select(['applied_at', 'task_ids']).where('id', '=', fileId).executeTakeFirstOrThrow();
      expect(plan.applied_at).toBeNull();
    } finally {
      await sql`drop trigger fail_pool_b on agent_tasks`.execute(t.db);
      await sql`drop function fail_pool_b()`.execute(t.db);
    }
    const res = await apply(admin, fileId, await giveCode(adminId));
    expect(res.statusCode, res.body).toBe(200);
    expect(body<PoolConfigApplyResult>(res).data.batches).toHaveLength(2);
    expect(await taskCount()).toBe(before + 2);
  });

  it('lets only the uploader apply, with the operations key, on their farm', async () => {
    const fileId = body<PoolConfigUploadResult>(await upload(admin, await xlsxOf(editedRows()))).data.fileId;
    const before = await taskCount();

    const operator = await createMember(admin, 'operator', [PERMISSION.miners, PERMISSION.minerOperations], [KEY]);
    const notYours = await apply(operator.client, fileId, await giveCode(operator.userId));
    expect(notYours.statusCode).toBe(403);
    expect(body(notYours).code).toBe(1082);

    const viewer = await createMember(admin, 'viewer', [PERMISSION.miners], [KEY]);
    expect((await download(viewer.client)).statusCode).toBe(200);
    expect((await upload(viewer.client, await xlsxOf(editedRows()))).statusCode).toBe(403);
    expect((await apply(viewer.client, fileId, await giveCode(viewer.userId))).statusCode).toBe(403);

    const outsider = await createMember(admin, 'outsider', [PERMISSION.miners, PERMISSION.minerOperations], [OTHER]);
    expect((await download(outsider.client)).statusCode).toBe(403);
    expect((await upload(outsider.client, await xlsxOf(editedRows()))).statusCode).toBe(403);
    expect((await apply(outsider.client, fileId, await giveCode(outsider.userId))).statusCode).toBe(403);

    const expired = await apply(admin, '00000000-0000-4000-8000-000000000000', await giveCode(adminId));
    expect(body(expired).code).toBe(1080);
    expect(await taskCount()).toBe(before);
  });

  it('refuses a role whose pool changes need approval, queueing nothing and keeping the code', async () => {
    const member = await createMember(admin, 'hosted-ops', [PERMISSION.miners, PERMISSION.minerOperations], [KEY]);
    await t.db.insertInto('approval_settings').values({ agent_key: KEY, approver_id: adminId, role_ids: [member.roleId], updated_by: adminId, updated_at: new Date() }).execute();
    const up = await upload(member.client, await xlsxOf(editedRows()));
    expect(up.statusCode, up.body).toBe(200);
    const before = await taskCount();
    const res = await apply(member.client, body<PoolConfigUploadResult>(up).data.fileId, await giveCode(member.userId));
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({ code: 1084 });
    expect(body(res).msg).toMatch(/approval/);
    expect(await taskCount()).toBe(before);
    const code = await t.db.selectFrom('verification_codes').select('used_at').where('user_id', '=', member.userId).executeTakeFirstOrThrow();
    expect(code.used_at).toBeNull();
    await t.db.deleteFrom('approval_settings').where('agent_key', '=', KEY).execute();
  });

  it('documents the three calls in the OpenAPI description', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/minerv2/getuploadPoolConfigFile', '/api/minerv2/uploadPoolConfig', '/api/minerv2/applyPoolConfig']));
  });

  it('prunes expired plans', async () => {
    await t.db.updateTable('pool_config_plans').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    await pruneBatchLeftovers(t.db);
    expect(await planCount()).toBe(0);
  });
});
