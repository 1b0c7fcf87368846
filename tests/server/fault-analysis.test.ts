/**
 * Fault analysis of one miner (POST /api/ai/analysis, GET /api/ai/status, GET /api/ai/result): a miner short of
 * chips with a failed hashboard gets those findings first, with the boards named, in the reader's language; an
 * offline miner is said to be offline; the run is kept and read again; bad input, another farm and an unknown miner
 * are refused; 10000 is enough to analyse. A stock Antminer that answers also has its own log read through the agent
 * (a history-log task): the run is running meanwhile, with the reading's findings, and the log's error lines join them
 * once the agent uploads it — or the run ends without them when the agent fails or takes too long; a Whatsminer's run
 * asks for no log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult, AnalysisStarted } from '@shared/schemas/fault-analysis';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { Client, type TestApp, agentCall, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

describe('fault analysis', () => {
  let t: TestApp;
  let admin: Client;
  let reader: Client;
  let outsider: Client;
  let farm: { agentKey: string; secret: string };

  const start = async (ip: string, client: Client = admin) => {
    const res = await client.post('/api/ai/analysis', { agentKey: farm.agentKey, ip });
    expect(res.statusCode, res.body).toBe(200);
    return body<AnalysisStarted>(res).data;
  };
  const result = async (id: string, client: Client = admin) => {
    const res = await client.get('/api/ai/result', { agentKey: farm.agentKey, id });
    expect(res.statusCode, res.body).toBe(200);
    return body<AnalysisResult>(res).data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'ai-a');
    const other = await createFarm(admin, 'ai-b');
    const takenAt = new Date().toISOString();
    const up = await uploadBatch(t.app, farm, { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots: Array.from({ length: 10 }, (_, i) => minerSnapshot(i, { takenAt })) });
    expect(up.statusCode, up.body).toBe(200);
    reader = (await createMember(admin, 'aireader', [10000], [farm.agentKey])).client;
    outsider = (await createMember(admin, 'aioutsider', [10000], [other.agentKey])).client;
  }, 60_000);
  afterAll(async () => t.close());

  /** The farm's agent: takes its history-log task for `ip` and uploads `log` (or fails with `reason`), then reports the task done. */
  const agentReadsLog = async (ip: string, log: { content: string } | { reason: string }) => {
    const tasks = body<{ id: string; op: string; targets: { ip: string }[] }[]>(await agentCall(t.app, farm, 'GET', '/tasks')).data;
    const task = tasks.find((x) => x.op === 'history-log' && x.targets[0]?.ip === ip)!;
    expect(task).toBeDefined();
    const upload = 'content' in log ? { ip, ok: true, content: log.content, source: '/cgi-bin/get_kernel_log.cgi' } : { ip, ok: false, reason: log.reason };
    expect((await agentCall(t.app, farm, 'POST', `/history-logs/${task.id}`, upload)).statusCode).toBe(200);
    const ok = 'content' in log;
    expect((await agentCall(t.app, farm, 'POST', `/tasks/${task.id}/results`, { results: [{ ip, ok, ...(ok ? {} : { reason: log.reason }) }], done: true })).statusCode).toBe(200);
  };

  it('names the missing chips and the failed hashboard first, then the rest, and keeps the run', async () => {
    const run = await start(minerIp(9), reader);
    // the agent is online (it uploaded) and this is a stock Antminer that answers: its log is asked for
    expect(run.status).toBe('running');
    const waiting = await result(run.id, reader);
    expect(waiting).toMatchObject({ status: 'running', logStatus: 'waiting' });
    expect(waiting.findings[0]!.code).toBe('missingChips');
    await agentReadsLog(minerIp(9), {
      content: '[ 0.0] Booting Linux\n2026-11-28 08:00:02 Chain 1 only find 64 asic, will power off hash board 1\n2026-11-28 08:05:00 ERROR_POWER_LOST: power lost\n',
    });
    expect(body<AnalysisStarted>(await reader.get('/api/ai/status', { agentKey: farm.agentKey, id: run.id })).data).toEqual({ id: run.id, status: 'done' });
    const r = await result(run.id, reader);
    expect(r).toMatchObject({ id: run.id, status: 'done', ip: minerIp(9), model: 'S19j Pro' });
    expect(r.sn).toMatch(/^JYZZ/);
    expect(r.findings.slice(0, 2).map((f) => [f.code, f.severity, f.params])).toEqual([
      ['missingChips', 'critical', { board: 2, chips: 64, expected: 126 }],
      ['missingBoard', 'critical', { board: 3 }],
    ]);
    expect(r.reason).toBe('Hashboard 2 finds 64 of 126 chips.');
    expect(r.suggestion).toContain('repair');
    expect(r.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['lowHashrate', 'firmwareError']));
    // the log's power loss joins them; its "only find 64" on board 2 repeats the reading and is not listed twice
    expect(r.logStatus).toBe('read');
    expect(r.findings[2]).toMatchObject({ code: 'logPowerLost', severity: 'critical', reason: "The miner's log reports a power loss (1×)." });
    expect(r.findings.filter((f) => f.code === 'logChainChips')).toEqual([]);
    expect(r.readingAt).not.toBeNull();
    // read again in another language
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = reader.cookie;
    expect(body<AnalysisResult>(await zh.get('/api/ai/result', { agentKey: farm.agentKey, id: run.id })).data.reason).toBe('算力板 2 检测到 64/126 颗芯片。');
  });

  it('says an offline miner is offline (and asks no log of it, nor of a Whatsminer)', async () => {
    const r = await result((await start(minerIp(8))).id);
    expect(r.findings[0]).toMatchObject({ code: 'offline', severity: 'critical', params: { missed: 3 } });
    expect(r.reason).toBe('The miner does not answer the agent (3 polls missed in a row).');
    expect(r).toMatchObject({ status: 'done', logStatus: 'none' });
    const wm = await start(minerIp(6));
    expect(wm.status).toBe('done');
    expect((await result(wm.id)).logStatus).toBe('none');
  });

  it('ends without the log when the agent cannot read it or takes too long', async () => {
    const failed = await start(minerIp(1));
    expect(failed.status).toBe('running');
    await agentReadsLog(minerIp(1), { reason: 'auth-failed' });
    expect(await result(failed.id)).toMatchObject({ status: 'done', logStatus: 'unavailable' });

    const slow = await start(minerIp(2));
    expect((await result(slow.id)).status).toBe('running');
    await t.db.updateTable('miner_analyses').set({ created_at: new Date(Date.now() - 120_000) }).where('id', '=', slow.id).execute();
    const late = await result(slow.id);
    expect(late).toMatchObject({ status: 'done', logStatus: 'unavailable' });
    expect(late.findings.length).toBeGreaterThan(0);
    // the agent's late answer changes nothing any more
    await agentReadsLog(minerIp(2), { content: 'ERROR_FAN_LOST: fan 1 lost\n' });
    expect((await result(slow.id)).findings).toEqual(late.findings);
  });

  it('refuses bad input, an unknown miner, another farm\'s run and a non-member', async () => {
    const bad = await admin.post('/api/ai/analysis', { agentKey: farm.agentKey });
    expect(bad.statusCode).toBe(400);
    expect((await admin.post('/api/ai/analysis', { agentKey: farm.agentKey, ip: '10.250.0.1' })).statusCode).toBe(404);
    expect((await admin.get('/api/ai/result', { agentKey: farm.agentKey, id: 'nope' })).statusCode).toBe(400);
    const run = await start(minerIp(1));
    expect((await admin.get('/api/ai/result', { agentKey: 'ai-b', id: run.id })).statusCode).toBe(404);
    expect((await outsider.post('/api/ai/analysis', { agentKey: farm.agentKey, ip: minerIp(1) })).statusCode).toBe(403);
    expect((await outsider.get('/api/ai/result', { agentKey: farm.agentKey, id: run.id })).statusCode).toBe(403);
  });
});
