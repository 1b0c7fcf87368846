/**
 * Miner records (issue 4 scope 2, 6): off-shelf records and back on shelf, the SN override (kept over later
 * agent readings, shown by list / detail / search), a miner's operation log, and history-log requests from
 * queueing through the agent's upload to the status answer. Bad input changes nothing; 10000 reads, 10500
 * writes (11000 / 11500 for the off-shelf page); another farm's member gets 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_UPLINK_PREFIX, type SnapshotBatch, agentAuthorization } from '@shared/schemas/agent-uplink';
import type { MinerDetail, MinerRow } from '@shared/schemas/miner';
import type { HistoryLogInfo, MinerOpLogRow, OffShelfRow, UpdateSnResult } from '@shared/schemas/miner-records';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { Page } from '@shared/schemas/common';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

const FLEET = 20;
const NEW_SN = 'HF0NEWSN000000017';

describe('miner records', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;
  let operator: Client;
  let outsider: Client;
  let shelfReader: Client;
  let shelfOperator: Client;
  let farmA: { agentKey: string; secret: string };
  let farmB: { agentKey: string; secret: string };
  let seq = 0;

  const upload = async (creds: { agentKey: string; secret: string }, snapshots: MinerSnapshot[]) => {
    seq += 1;
    const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: new Date().toISOString(), cycleDurationMs: 8000, snapshots };
    const res = await uploadBatch(t.app, creds, batch);
    expect(res.statusCode, res.body).toBe(200);
  };
  const fleet = () => Array.from({ length: FLEET }, (_, i) => minerSnapshot(i, { takenAt: new Date().toISOString() }));
  const ip = (i: number) => minerIp(i);
  const agentPost = (creds: { agentKey: string; secret: string }, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: agentAuthorization(creds.agentKey, creds.secret) }, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farmA = await createFarm(admin, 'rec-a');
    farmB = await createFarm(admin, 'rec-b');
    await upload(farmA, fleet());
    await upload(farmB, [{ ...minerSnapshot(0, { takenAt: new Date().toISOString() }), ip: '172.16.0.1' }]);
    reader = (await createMember(admin, 'reader', [10000, 11000], [farmA.agentKey])).client;
    operator = (await createMember(admin, 'operator', [10000, 10500], [farmA.agentKey])).client;
    outsider = (await createMember(admin, 'outsider', [10000, 10500, 11000, 11500], [farmB.agentKey])).client;
    shelfReader = (await createMember(admin, 'shelfreader', [11000], [farmA.agentKey])).client;
    shelfOperator = (await createMember(admin, 'shelfop', [11000, 11500], [farmA.agentKey])).client;
  }, 60_000);
  afterAll(async () => t.close());

  const detail = async (i: number) => body<MinerDetail>(await admin.get('/api/miner/detail', { agentKey: farmA.agentKey, ip: ip(i) })).data;
  const opLog = async (i: number, client: Client = admin) => {
    const res = await client.get('/api/miner/opLog', { agentKey: farmA.agentKey, ip: ip(i) });
    expect(res.statusCode, res.body).toBe(200);
    return body<Page<MinerOpLogRow>>(res).data;
  };

  describe('SN update', () => {
    it('refuses an SN that is not 17 characters with "SN must be 17", localised, and changes nothing', async () => {
      const before = await detail(3);
      for (const sn of ['SHORT', `${NEW_SN}X`, '', '                 ']) {
        const res = await operator.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: ip(3), sn });
        expect(res.statusCode, sn).toBe(400);
        expect(res.body).toContain('SN must be 17 characters');
      }
      const zh = await t.app.inject({ method: 'POST', url: '/api/miner/updateSn', headers: { cookie: operator.cookie!, 'x-requested-with': 'XMLHttpRequest', I18N: 'zh-CN' }, payload: { agentKey: farmA.agentKey, ip: ip(3), sn: 'X' } });
      expect(zh.body).toContain('SN必须是17位');
      expect((await detail(3)).sn).toBe(before.sn);
      expect((await opLog(3)).total).toBe(0);
    });

    it('needs 10500 and membership of the farm', async () => {
      expect((await reader.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: ip(3), sn: NEW_SN })).statusCode).toBe(403);
      expect((await outsider.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: ip(3), sn: NEW_SN })).statusCode).toBe(403);
      expect((await operator.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: '10.9.9.9', sn: NEW_SN })).statusCode).toBe(404);
      expect((await detail(3)).sn).not.toBe(NEW_SN);
    });

    it('stores the SN (normalised), shows it in detail, list and search, once (idempotent), and keeps it over later readings', async () => {
      const reported = (await detail(3)).sn;
      const res = await operator.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: ip(3), sn: ` ${NEW_SN.toLowerCase()} ` });
      expect(res.statusCode, res.body).toBe(200);
      expect(body<UpdateSnResult>(res).data).toEqual({ ip: ip(3), sn: NEW_SN, reportedSn: reported, changed: true });
      const again = await operator.post('/api/miner/updateSn', { agentKey: farmA.agentKey, ip: ip(3), sn: NEW_SN });
      expect(body<UpdateSnResult>(again).data.changed).toBe(false);

      await upload(farmA, fleet());
      const d = await detail(3);
      expect(d.sn).toBe(NEW_SN);
      expect(d.snapshot.sn).toBe(reported);
      const found = body<Page<MinerRow>>(await reader.get('/api/miner/list', { agentKey: farmA.agentKey, keyword: 'HF0NEWSN' })).data;
      expect(found.list.map((r) => r.ip)).toEqual([ip(3)]);
      expect(found.list[0]?.sn).toBe(NEW_SN);

      const log = await opLog(3, reader);
      expect(log.total).toBe(1);
      expect(log.list[0]).toMatchObject({ action: 'updateSn', kind: 'record', user: 'operator', ok: true, detail: { from: reported, to: NEW_SN } });
    });

    it('tells in the log whether a blink turned the locate light on or off', async () => {
      for (const on of ['true', 'false']) expect((await admin.post('/api/minerv2/batchBlink', { agentKey: farmA.agentKey, ips: ip(2), on })).statusCode).toBe(200);
      const log = await opLog(2);
      expect(log.list.filter((r) => r.action === 'batchBlink').map((r) => r.detail)).toEqual(expect.arrayContaining([{ light: 'on' }, { light: 'off' }]));
    });
  });

  describe('off-shelf records', () => {
    const offShelf = async (query: Record<string, string> = {}, client: Client = shelfReader) => {
      const res = await client.get('/api/miner/offShelfList', { agentKey: farmA.agentKey, ...query });
      expect(res.statusCode, res.body).toBe(200);
      return body<Page<OffShelfRow>>(res).data;
    };

    beforeAll(async () => {
      const res = await admin.post('/api/minerv2/batchOffline', { agentKey: farmA.agentKey, ips: [ip(5), ip(6), ip(12)].join(',') });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('lists the marked miners with when, who, the batch, SN and model, paged in the database', async () => {
      const all = await offShelf();
      expect(all.total).toBe(3);
      expect(all.list.map((r) => r.ip).sort()).toEqual([ip(12), ip(5), ip(6)].sort());
      const d5 = await detail(5);
      expect(all.list.find((r) => r.ip === ip(5))).toMatchObject({ sn: d5.sn, model: d5.model, by: 'admin', op: 'batchOffline', present: true });
      expect(all.list.every((r) => r.offShelfAt !== null)).toBe(true);
      const p1 = await offShelf({ pageSize: '2', page: '1' });
      const p2 = await offShelf({ pageSize: '2', page: '2' });
      expect(p1.list).toHaveLength(2);
      expect(p2.list).toHaveLength(1);
      expect(new Set([...p1.list, ...p2.list].map((r) => r.ip)).size).toBe(3);
      expect((await offShelf({ keyword: ip(12) })).list.map((r) => r.ip)).toEqual([ip(12)]);
      expect((await offShelf({ keyword: d5.sn.slice(-6) })).list.map((r) => r.ip)).toContain(ip(5));
    });

    it('refuses bad queries and other farms', async () => {
      expect((await shelfReader.get('/api/miner/offShelfList', { agentKey: farmA.agentKey, pageSize: '5000' })).statusCode).toBe(400);
      expect((await outsider.get('/api/miner/offShelfList', { agentKey: farmA.agentKey })).statusCode).toBe(403);
      expect((await operator.get('/api/miner/offShelfList', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    });

    it('puts a miner back on shelf with 11500 only, idempotently, and logs it', async () => {
      expect((await shelfOperator.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [] })).statusCode).toBe(400);
      expect((await shelfOperator.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: 'x' })).statusCode).toBe(400);
      expect((await shelfReader.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [ip(5)] })).statusCode).toBe(403);
      expect((await outsider.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [ip(5)] })).statusCode).toBe(403);
      expect((await offShelf()).total).toBe(3);

      const res = await shelfOperator.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [ip(5)] });
      expect(body<{ changed: string[] }>(res).data.changed).toEqual([ip(5)]);
      const again = await shelfOperator.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [ip(5)] });
      expect(body<{ changed: string[] }>(again).data.changed).toEqual([]);
      expect((await offShelf()).list.map((r) => r.ip)).not.toContain(ip(5));
      const log = await opLog(5);
      expect(log.list.map((r) => r.action)).toEqual(['onShelf', 'batchOffline']);
      expect(log.list[0]?.user).toBe('shelfop');
      expect(log.list[1]).toMatchObject({ kind: 'batch', user: 'admin', ok: true });
    });

    it('leaves miners off shelf out of the on-shelf list (/device/miner), its counters, the dashboard and the statistics, and shows one put back at once', async () => {
      const listed = async (query: Record<string, string> = {}) => {
        const res = await reader.get('/api/miner/list', { agentKey: farmA.agentKey, pageSize: '1000', ...query });
        expect(res.statusCode, res.body).toBe(200);
        return body<Page<MinerRow>>(res).data;
      };
      const total = async () => body<{ total: number }>(await reader.get('/api/miner/stat', { agentKey: farmA.agentKey })).data.total;
      // ip(6) and ip(12) are off shelf (ip(5) was put back above).
      const before = await listed();
      expect(before.total).toBe(FLEET - 2);
      expect(before.list.map((r) => r.ip)).not.toContain(ip(6));
      expect(before.list.map((r) => r.ip)).toContain(ip(5));
      expect(await total()).toBe(FLEET - 2);
      // The IP order's ids and count are kept between requests: a shelf change is seen at once all the same.
      expect((await listed({ keyword: ip(8) })).list.map((r) => r.ip)).toEqual([ip(8)]);
      expect((await admin.post('/api/minerv2/batchOffline', { agentKey: farmA.agentKey, ips: ip(8) })).statusCode).toBe(200);
      const after = await listed();
      expect(after.total).toBe(FLEET - 3);
      expect(after.list.map((r) => r.ip)).not.toContain(ip(8));
      expect((await listed({ keyword: ip(8) })).total).toBe(0);
      expect(await total()).toBe(FLEET - 3);
      // The dashboard, the hashrate overview and the model statistics count the same miners as the list.
      const figures = async () => {
        const dash = body<{ counters: { total: number } }>(await reader.get('/api/dashboard/summary', { agentKey: farmA.agentKey })).data;
        const index = body<{ total: number }>(await reader.get('/api/miner/indexStat', { agentKey: farmA.agentKey })).data;
        const models = body<{ count: number }[]>(await reader.get('/api/miner/modelstat', { agentKey: farmA.agentKey })).data;
        return [dash.counters.total, index.total, models.reduce((n, m) => n + m.count, 0)];
      };
      expect(await figures()).toEqual([FLEET - 3, FLEET - 3, FLEET - 3]);
      // Its detail says it is off shelf (since when, its repair); one on shelf says nothing of it.
      expect((await detail(8)).offShelf).toEqual({ at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), repairStatus: null });
      expect((await detail(9)).offShelf).toBeNull();
      expect((await shelfOperator.post('/api/miner/onShelf', { agentKey: farmA.agentKey, ips: [ip(8)] })).statusCode).toBe(200);
      expect(await figures()).toEqual([FLEET - 2, FLEET - 2, FLEET - 2]);
      expect((await listed()).list.map((r) => r.ip)).toContain(ip(8));
      expect((await listed({ keyword: ip(8) })).list.map((r) => r.ip)).toEqual([ip(8)]);
    });
  });

  describe('operation log', () => {
    it('shows queued batches, then their results, paged; refuses bad input and other farms', async () => {
      const res = await admin.post('/api/minerv2/batchReboot', { agentKey: farmA.agentKey, ips: ip(7) });
      expect(res.statusCode, res.body).toBe(200);
      const queued = await opLog(7);
      expect(queued.list[0]).toMatchObject({ action: 'batchReboot', kind: 'batch', ok: null });
      const taskId = body<{ taskId: string }>(res).data.taskId;
      const report = await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/tasks/${taskId}/results`, { results: [{ ip: ip(7), ok: false, reason: 'timeout' }], done: true });
      expect(report.statusCode, report.body).toBe(200);
      const done = await opLog(7);
      expect(done.total).toBe(1);
      expect(done.list[0]).toMatchObject({ action: 'batchReboot', ok: false, reason: 'timeout' });

      const paged = body<Page<MinerOpLogRow>>(await admin.get('/api/miner/opLog', { agentKey: farmA.agentKey, ip: ip(5), pageSize: '1', page: '2' })).data;
      expect(paged).toMatchObject({ total: 2, curPage: 2, pageSize: 1 });
      expect(paged.list.map((r) => r.action)).toEqual(['batchOffline']);

      expect((await admin.get('/api/miner/opLog', { agentKey: farmA.agentKey, ip: ip(5), pageSize: '0' })).statusCode).toBe(400);
      expect((await outsider.get('/api/miner/opLog', { agentKey: farmA.agentKey, ip: ip(5) })).statusCode).toBe(403);
      expect((await shelfReader.get('/api/miner/opLog', { agentKey: farmA.agentKey, ip: ip(5) })).statusCode).toBe(403);
    });
  });

  describe('history log', () => {
    const status = async (id: string, client: Client = reader) => {
      const res = await client.get('/api/miner/historyLog/status', { agentKey: farmA.agentKey, id });
      expect(res.statusCode, res.body).toBe(200);
      return body<HistoryLogInfo>(res).data;
    };
    const taskOf = async (id: string) => (await t.db.selectFrom('miner_history_logs').select('task_id').where('id', '=', id).executeTakeFirstOrThrow()).task_id!;

    it('refuses bad input, readers and other farms, and queues nothing', async () => {
      const count = async () => (await t.db.selectFrom('agent_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
      const before = Number(await count());
      expect((await operator.post('/api/miner/historyLog', { agentKey: farmA.agentKey })).statusCode).toBe(400);
      expect((await operator.post('/api/miner/historyLog', { agentKey: farmA.agentKey, ip: '10.9.9.9' })).statusCode).toBe(404);
      expect((await reader.post('/api/miner/historyLog', { agentKey: farmA.agentKey, ip: ip(1) })).statusCode).toBe(403);
      expect((await outsider.post('/api/miner/historyLog', { agentKey: farmA.agentKey, ip: ip(1) })).statusCode).toBe(403);
      expect(Number(await count())).toBe(before);
      expect((await reader.get('/api/miner/historyLog/status', { agentKey: farmA.agentKey, id: 'nope' })).statusCode).toBe(400);
      expect((await reader.get('/api/miner/historyLog/status', { agentKey: farmA.agentKey, id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    });

    it('goes pending → running → done with the text the agent uploads', async () => {
      const res = await operator.post('/api/miner/historyLog', { agentKey: farmA.agentKey, ip: ip(1) });
      expect(res.statusCode, res.body).toBe(200);
      const { id } = body<{ id: string }>(res).data;
      expect((await status(id)).status).toBe('pending');
      expect((await outsider.get('/api/miner/historyLog/status', { agentKey: farmA.agentKey, id })).statusCode).toBe(403);
      expect((await outsider.get('/api/miner/historyLog/status', { agentKey: farmB.agentKey, id })).statusCode).toBe(404);

      const tasks = await t.app.inject({ method: 'GET', url: `${AGENT_UPLINK_PREFIX}/tasks`, headers: { authorization: agentAuthorization(farmA.agentKey, farmA.secret) } });
      const picked = body<{ id: string; op: string; targets: { ip: string }[] }[]>(tasks).data.find((x) => x.op === 'history-log');
      expect(picked?.targets).toEqual([expect.objectContaining({ ip: ip(1) })]);
      expect((await status(id)).status).toBe('running');

      const taskId = await taskOf(id);
      const text = 'Nov 22 05:00:01 kernel: booting\nChain 1 only find 120 asic\n';
      // Bad uploads are refused and store nothing; a user session cannot upload; another farm's agent cannot
      // write it; a wrong IP is refused.
      expect((await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/not-a-uuid`, { ip: ip(1), ok: true, content: 'x' })).statusCode).toBe(400);
      expect((await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ok: true, content: 'x' })).statusCode).toBe(400);
      expect((await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(1), ok: 'yes' })).statusCode).toBe(400);
      expect((await operator.post(`${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(1), ok: true, content: 'x' })).statusCode).toBe(401);
      expect((await status(id)).status).toBe('running');
      expect((await agentPost(farmB, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(1), ok: true, content: 'x' })).statusCode).toBe(404);
      expect((await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(2), ok: true, content: 'x' })).statusCode).toBe(404);
      const up = await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(1), ok: true, content: text, source: '/cgi-bin/get_kernel_log.cgi' });
      expect(up.statusCode, up.body).toBe(200);
      await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/tasks/${taskId}/results`, { results: [{ ip: ip(1), ok: true }], done: true });
      const s = await status(id);
      expect(s).toMatchObject({ status: 'done', content: text, size: Buffer.byteLength(text), source: '/cgi-bin/get_kernel_log.cgi', reason: null });
      // A repeated upload changes nothing.
      await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/history-logs/${taskId}`, { ip: ip(1), ok: false, reason: 'late' });
      expect((await status(id)).content).toBe(text);
      expect((await opLog(1)).list.map((r) => r.action)).toContain('historyLog');
    });

    it('reads as failed with the agent reason when the task ends without a log', async () => {
      const { id } = body<{ id: string }>(await operator.post('/api/miner/historyLog', { agentKey: farmA.agentKey, ip: ip(2) })).data;
      const taskId = await taskOf(id);
      await agentPost(farmA, `${AGENT_UPLINK_PREFIX}/tasks/${taskId}/results`, { results: [{ ip: ip(2), ok: false, reason: 'unreachable: refused' }], done: true });
      expect(await status(id)).toMatchObject({ status: 'failed', reason: 'unreachable: refused', content: null });
    });
  });
});
