/**
 * Fault analysis of one miner (POST /api/ai/analysis, GET /api/ai/status, GET /api/ai/result): a miner short of
 * chips with a failed hashboard gets those findings first, with the boards named, in the reader's language; an
 * offline miner is said to be offline; the run is kept and read again; bad input, another farm and an unknown miner
 * are refused; 10000 is enough to analyse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult, AnalysisStarted } from '@shared/schemas/fault-analysis';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

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

  it('names the missing chips and the failed hashboard first, then the rest, and keeps the run', async () => {
    const run = await start(minerIp(9), reader);
    expect(run.status).toBe('done');
    expect(body<AnalysisStarted>(await reader.get('/api/ai/status', { agentKey: farm.agentKey, id: run.id })).data).toEqual(run);
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
    expect(r.readingAt).not.toBeNull();
    // read again in another language
    const zh = new Client(t.app, 'zh-CN');
    zh.cookie = reader.cookie;
    expect(body<AnalysisResult>(await zh.get('/api/ai/result', { agentKey: farm.agentKey, id: run.id })).data.reason).toBe('算力板 2 检测到 64/126 颗芯片。');
  });

  it('says an offline miner is offline', async () => {
    const r = await result((await start(minerIp(8))).id);
    expect(r.findings[0]).toMatchObject({ code: 'offline', severity: 'critical', params: { missed: 3 } });
    expect(r.reason).toBe('The miner does not answer the agent (3 polls missed in a row).');
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
