/**
 * The counters of GET /api/miner/stat (per farm and filter), the dashboard's figures now and the statistics pages'
 * figures (indexStat, modelstat; per farm) are kept under
 * the farm's data stamp (miner-stamps.ts DataStampCache): a second console asking the same gets the kept answer
 * without a count of the farm, and every change of a miner (an upload, a deletion) or a minute passing makes them
 * count afresh.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MinerIndexStat, MinerModelStat, MinerStat } from '@shared/schemas/miner';
import type { DashboardSummary } from '@shared/schemas/miner-records';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, setupAdmin, uploadCycle } from './harness';

describe('miner counters kept under the data stamp', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let seq = 0;
  let minute = 0;
  const readings = (n: number, tweak?: (s: MinerSnapshot, i: number) => void) => {
    minute += 1;
    return cycleReadings(n, new Date(Date.now() - 60 * 60_000 + minute * 60_000).toISOString(), tweak);
  };
  const upload = (snapshots: MinerSnapshot[]) => uploadCycle(t.app, farm, ++seq, snapshots);
  const stat = async (query: Record<string, string> = {}) => {
    const res = await admin.get('/api/miner/stat', { agentKey: farm.agentKey, ...query });
    expect(res.statusCode, res.body).toBe(200);
    return body<MinerStat>(res).data;
  };
  /** Turns a miner offline in the database without bumping its version: only a count of the farm can see it. */
  const offlineUnstamped = async (ip: string) => {
    await sql`alter table miners disable trigger miners_sync_writer`.execute(t.db);
    try {
      await sql`update miners set online = false where agent_key = ${farm.agentKey} and ip = ${ip}`.execute(t.db);
    } finally {
      await sql`alter table miners enable trigger miners_sync_writer`.execute(t.db);
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'stat-kept');
    await upload(readings(20));
  }, 60_000);
  afterAll(async () => t.close());
  afterEach(() => void vi.useRealTimers());

  it('answers the kept counters while nothing changed, and counts afresh after an upload', async () => {
    const first = await stat();
    expect(first.total).toBe(20);
    // Offline without a new stamp: the kept counters answer (stale on purpose here), proving no count ran.
    await offlineUnstamped(minerIp(0));
    expect((await stat()).online).toBe(first.online);
    // An ordinary cycle with miner 1 offline: new data stamp, counted afresh (miner 0 comes back online with it).
    await upload(readings(20, (s, i) => {
      if (i === 1) {
        s.online = false;
        s.state = { ...s.state, online: false, qualified: false };
      }
    }));
    const spy = vi.spyOn(t.db.getExecutor(), 'executeQuery');
    const after = await stat();
    // (the farm's off-shelf check, kept two seconds, may run again on a slow machine: not counted)
    const statements = spy.mock.calls.filter(([q]) => !q.sql.includes('off_shelf')).length;
    spy.mockRestore();
    expect(after.online).toBe(first.online - 1);
    expect(after.offline).toBe(first.offline + 1);
    // The upload was noted: the kept counters are known stale without reading the farm's stamp first.
    expect(statements).toBe(1);
  });

  it('keeps each filter apart, and counts afresh after a deletion', async () => {
    const all = await stat();
    const s21 = await stat({ model: 'S21' });
    expect(s21.total).toBeLessThan(all.total);
    expect((await stat()).total).toBe(all.total);
    // A deletion (the console's batchDelete removes the row the same way) leaves a tombstone: a new data stamp.
    await t.db.deleteFrom('miners').where('agent_key', '=', farm.agentKey).where('ip', '=', minerIp(2)).execute();
    expect((await stat()).total).toBe(all.total - 1);
    expect((await stat({ model: 'S21' })).total).toBe(s21.total - (minerSnapshot(2, { takenAt: '' }).model === 'S21' ? 1 : 0));
  });

  it('counts afresh after a minute even with the same stamp (offline over 24 hours moves on with the clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const before = await stat();
    await offlineUnstamped(minerIp(3));
    expect((await stat()).online).toBe(before.online); // kept
    vi.setSystemTime(Date.now() + 61_000);
    expect((await stat()).online).toBe(before.online - 1);
  });

  it('lets concurrent consoles share one count after a change', async () => {
    await upload(readings(20));
    const answers = await Promise.all(Array.from({ length: 10 }, () => stat()));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  it('keeps the dashboard figures now the same way', async () => {
    const summary = async () => {
      const res = await admin.get('/api/dashboard/summary', { agentKey: farm.agentKey });
      expect(res.statusCode, res.body).toBe(200);
      return body<DashboardSummary>(res).data;
    };
    await upload(readings(20));
    const before = await summary();
    await offlineUnstamped(minerIp(4));
    expect((await summary()).counters.online).toBe(before.counters.online); // kept
    await upload(readings(20, (s, i) => {
      if (i === 5) {
        s.online = false;
        s.state = { ...s.state, online: false, qualified: false };
      }
    }));
    const after = await summary();
    expect(after.counters.online).toBe(before.counters.online - 1); // miner 4 is back online with the upload, 5 is not
    expect(after.temperature.online).toBe(after.counters.online);
  });

  it('keeps the statistics pages\' figures (hashrate overview, models) the same way', async () => {
    const get = async <T>(url: string) => {
      const res = await admin.get(url, { agentKey: farm.agentKey });
      expect(res.statusCode, res.body).toBe(200);
      return body<T>(res).data;
    };
    const onlineOf = (models: MinerModelStat[]) => models.reduce((n, m) => n + m.online, 0);
    await upload(readings(20));
    const index = await get<MinerIndexStat>('/api/miner/indexStat');
    const models = await get<MinerModelStat[]>('/api/miner/modelstat');
    expect(onlineOf(models)).toBe(index.online);
    await offlineUnstamped(minerIp(6));
    expect((await get<MinerIndexStat>('/api/miner/indexStat')).online).toBe(index.online); // kept
    expect(onlineOf(await get<MinerModelStat[]>('/api/miner/modelstat'))).toBe(index.online);
    await upload(readings(20, (s, i) => {
      if (i === 7) {
        s.online = false;
        s.state = { ...s.state, online: false, qualified: false };
      }
    }));
    expect((await get<MinerIndexStat>('/api/miner/indexStat')).online).toBe(index.online - 1);
    expect(onlineOf(await get<MinerModelStat[]>('/api/miner/modelstat'))).toBe(index.online - 1);
  });
});
