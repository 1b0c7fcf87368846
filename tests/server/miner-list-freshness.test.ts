/**
 * The miner list keeps counts and the ordered ids of short results between requests while the farm's data stamp is
 * unchanged (src/server/domains/miners/find-miners.ts). These tests change the farm between two requests — a new
 * cycle that adds miners and reorders them, a deletion, a mark — and check that the very next answer shows it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp } from '../support/miner-snapshots';
import { LIST_LIMITS } from '../../src/server/domains/miners/find-miners';
import { type Client, type TestApp, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

describe('miner list: counts and kept ids follow every change', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let seq = 0;
  const takenAt = new Date().toISOString();

  const upload = async (snapshots: MinerSnapshot[], to = farm) => uploadCycle(t.app, to, ++seq, snapshots);
  const readings = (n: number, tweak?: (s: MinerSnapshot, i: number) => void) => cycleReadings(n, takenAt, tweak);
  const list = async (query: Record<string, string>, to = farm) => listMiners(admin, to.agentKey, query);
  /** Every page of a query, one request each, as the console pages through it. */
  const allPages = async (query: Record<string, string>) => {
    const first = await list({ ...query, page: '1' });
    const rows = [...first.list];
    for (let p = 2; p <= Math.ceil(first.total / 10); p++) rows.push(...(await list({ ...query, page: String(p) })).list);
    return { total: first.total, ips: rows.map((r) => r.ip) };
  };
  const ipOrder = (n: number) => Array.from({ length: n }, (_, i) => minerIp(i));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'fresh-a');
    await upload(readings(40));
  }, 60_000);
  afterAll(async () => t.close());

  it('pages a short result (keyword) from kept ids, and shows miners added by the next cycle at once', async () => {
    expect(await allPages({ keyword: '10.0.0.' })).toEqual({ total: 40, ips: ipOrder(40) });
    expect((await list({ keyword: '10.0.0.', page: '3' })).list.map((r) => r.ip)).toEqual(ipOrder(40).slice(20, 30));
    await upload(readings(45));
    expect(await allPages({ keyword: '10.0.0.' })).toEqual({ total: 45, ips: ipOrder(45) });
    expect(await list({})).toMatchObject({ total: 45 });
  });

  it('reorders a sorted short result as soon as a cycle changes the sort column, with fresh row values', async () => {
    const before = await allPages({ keyword: '10.0.0.', sort: 'gHS5s', order: 'desc' });
    expect(before.total).toBe(45);
    const last = before.ips.at(-1)!;
    const index = ipOrder(45).indexOf(last);
    await upload(readings(45, (s, i) => {
      if (i === index) s.rt5s = 999_999;
    }));
    const page1 = await list({ keyword: '10.0.0.', sort: 'gHS5s', order: 'desc', page: '1' });
    expect(page1.list[0]).toMatchObject({ ip: last, gHS5s: 999_999 });
    expect((await allPages({ keyword: '10.0.0.', sort: 'gHS5s', order: 'desc' })).ips).toHaveLength(45);
  });

  it('drops a deleted miner from the next count and page, filtered or not', async () => {
    expect((await list({ faultType: 'missing-chip' })).total).toBeGreaterThanOrEqual(0);
    await list({ keyword: '10.0.0.', page: '2' });
    await t.db.deleteFrom('miners').where('agent_key', '=', farm.agentKey).where('ip', '=', minerIp(12)).execute();
    const after = await allPages({ keyword: '10.0.0.' });
    expect(after.total).toBe(44);
    expect(after.ips).toEqual(ipOrder(45).filter((ip) => ip !== minerIp(12)));
    expect((await list({})).total).toBe(44);
  });

  it('counts a fault filter afresh when a cycle changes the fault labels', async () => {
    const tagged = (await list({ faultType: 'high-temperature', pageSize: '1000' })).total;
    const cycle = readings(45, (s, i) => {
      if (i < 20) s.faultLabels = ['high-temperature'];
    });
    await upload(cycle);
    const expected = cycle.filter((s) => s.faultLabels.includes('high-temperature')).map((s) => s.ip);
    const now = await list({ faultType: 'high-temperature', pageSize: '1000' });
    expect(now.total).toBe(expected.length);
    expect(now.total).not.toBe(tagged);
    expect(now.list.map((r) => r.ip)).toEqual(expected);
  });

  it('pages deep into a large result from its kept ids, and follows the next cycle there too', async () => {
    const big = await createFarm(admin, 'fresh-deep');
    const n = 1300;
    await upload(readings(n), big);
    // Page 111 of 10 skips 1,100 rows: read from the kept ordered ids (several requests at once share one read).
    const deep = await Promise.all([111, 112, 130].map((p) => list({ page: String(p) }, big)));
    expect(deep.map((d) => d.total)).toEqual([n, n, n]);
    expect(deep.map((d) => d.list.map((r) => r.ip))).toEqual([ipOrder(n).slice(1100, 1110), ipOrder(n).slice(1110, 1120), ipOrder(n).slice(1290, 1300)]);
    const byRate = await list({ sort: 'gHS5s', order: 'desc', page: '120', pageSize: '10' }, big);
    // The next cycle: one miner's hashrate jumps to the top and 20 miners are added; deep pages show it at once.
    const sorted = byRate.list.map((r) => r.ip);
    await upload(readings(n + 20, (s, i) => {
      if (i === 5) s.rt5s = 9_999_999;
    }), big);
    const first = await list({ sort: 'gHS5s', order: 'desc', page: '1', pageSize: '1' }, big);
    expect(first.list[0]).toMatchObject({ ip: minerIp(5), gHS5s: 9_999_999 });
    const again = await list({ sort: 'gHS5s', order: 'desc', page: '120', pageSize: '10' }, big);
    expect(again.total).toBe(n + 20);
    expect(again.list.map((r) => r.ip)).not.toEqual(sorted);
    const last = await list({ page: '132' }, big);
    expect(last.list.map((r) => r.ip)).toEqual(ipOrder(n + 20).slice(1310, 1320));
  }, 60_000);

  it('pages the head of a long filtered, sorted result from its kept head ids, and follows the next cycle there', async () => {
    // 300 miners with limits of 100 kept ids and a head of 60: pages 1–6 of 10 come from the head, deeper ones not.
    const saved = { ...LIST_LIMITS };
    Object.assign(LIST_LIMITS, { listCap: 100, head: 60 });
    try {
      const long = await createFarm(admin, 'fresh-head');
      const n = 300;
      const rates = (i: number) => 100_000 + ((i * 37) % n) * 10; // distinct hashrates in a shuffled order
      const online = (s: MinerSnapshot, on: boolean) => {
        s.online = on;
        s.missedPolls = on ? 0 : 3;
        s.state.online = on;
      };
      await upload(readings(n, (s, i) => {
        s.rt5s = rates(i);
        online(s, true);
      }), long);
      const byRate = Array.from({ length: n }, (_, i) => i).sort((a, b) => rates(b) - rates(a)).map(minerIp);
      const query = { status: 'online', sort: 'gHS5s', order: 'desc', pageSize: '10' };
      // Several consoles at once on pages inside the head (one read of the head, shared).
      const pages = await Promise.all([1, 2, 6].map((p) => list({ ...query, page: String(p) }, long)));
      expect(pages.map((p) => p.total)).toEqual([n, n, n]);
      expect(pages.map((p) => p.list.map((r) => r.ip))).toEqual([1, 2, 6].map((p) => byRate.slice((p - 1) * 10, p * 10)));
      // The next cycle: the slowest miner becomes the fastest and one miner goes offline; the head shows both at once.
      const slowest = byRate.at(-1)!;
      const dropped = byRate[3]!;
      await upload(readings(n, (s, i) => {
        s.rt5s = s.ip === slowest ? 9_999_999 : rates(i);
        online(s, s.ip !== dropped);
      }), long);
      const after = [slowest, ...byRate.slice(0, -1).filter((ip) => ip !== dropped)];
      const again = await Promise.all([1, 6].map((p) => list({ ...query, page: String(p) }, long)));
      expect(again.map((p) => p.total)).toEqual([n - 1, n - 1]);
      expect(again[0]!.list[0]).toMatchObject({ ip: slowest, gHS5s: 9_999_999 });
      expect(again.map((p) => p.list.map((r) => r.ip))).toEqual([after.slice(0, 10), after.slice(50, 60)]);
      // Past the head: pages read from the whole result's ids, then the head's pages again.
      const deeper = await Promise.all([7, 30, 1].map((p) => list({ ...query, page: String(p) }, long)));
      expect(deeper.map((p) => p.list.map((r) => r.ip))).toEqual([after.slice(60, 70), after.slice(290, 299), after.slice(0, 10)]);
      // After the next upload the kept head is known stale without reading a page from it: one page read (the head's
      // ids read afresh, then its rows), and the total counted beside the ids.
      await upload(readings(n, (s, i) => {
        s.rt5s = s.ip === slowest ? 9_999_999 : rates(i);
        online(s, s.ip !== dropped && s.ip !== byRate[0]);
      }), long);
      const spy = vi.spyOn(t.db.getExecutor(), 'executeQuery');
      const third = await list({ ...query, page: '1' }, long);
      const statements = spy.mock.calls.map(([q]) => q.sql);
      spy.mockRestore();
      expect(third.total).toBe(n - 2);
      expect(third.list.map((r) => r.ip)).toEqual(after.filter((ip) => ip !== byRate[0]).slice(0, 10));
      expect(statements.filter((q) => q.includes('unnest('))).toHaveLength(1);
    } finally {
      Object.assign(LIST_LIMITS, saved);
    }
  }, 60_000);
});
