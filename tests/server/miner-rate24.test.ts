/**
 * The list's 24-hour average hashrate (rate24Hour): the ingest keeps the sums of the 23 whole hours before a miner's
 * current hourly bucket on its row (migration 202611230340, STAT_HOUR_UPSERT), so a page adds them to the current
 * bucket instead of reading 24 history rows per miner. These tests upload readings spread over a day and a half and
 * compare the list with the average of the readings inside the window, for a miner read this hour (the kept sums)
 * and one that was not (the history), and after a migration-era row without sums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

const HOUR_MS = 3_600_000;

describe('miner list: 24-hour average hashrate', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let seq = 0;
  const now = Date.now();
  const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
  /** Readings of miners 0 and 1 in time order: [hours ago, rt5s of miner 0, rt5s of miner 1 (null: not read)]. */
  const plan: [number, number, number | null][] = [
    [30, 1_000, 5_000], // outside the window
    [20, 100_000, 150_000],
    [10, 120_000, 160_000],
    [2, 140_000, 170_000],
    [1, 160_000, 180_000],
  ];
  /** This hour: two readings of miner 0 (miner 1 is not read this hour). */
  const thisHour = [hourStart + Math.floor((now - hourStart) / 3), hourStart + Math.floor(((now - hourStart) * 2) / 3)];
  const rate = (i: number, rt: number, takenAtMs: number): MinerSnapshot => {
    const s = structuredClone(minerSnapshot(i, { takenAt: new Date(takenAtMs).toISOString() }));
    s.rt5s = rt;
    return s;
  };
  const rowOf = async (ip: string, query: Record<string, string> = {}) => (await listMiners(admin, farm.agentKey, { keyword: ip, ...query })).list.find((r) => r.ip === ip);
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'rate24');
    for (const [hoursAgo, r0, r1] of plan) {
      const at = now - hoursAgo * HOUR_MS;
      await uploadCycle(t.app, farm, ++seq, [rate(0, r0, at), ...(r1 === null ? [] : [rate(1, r1, at)])]);
    }
  }, 60_000);
  afterAll(async () => t.close());

  it('adds the current hour to the kept sums of the 23 hours before it, and follows each new reading', async () => {
    await uploadCycle(t.app, farm, ++seq, [rate(0, 180_000, thisHour[0]!)]);
    const inWindow = plan.filter(([h]) => h < 23).map(([, r0]) => r0);
    expect((await rowOf(minerIp(0)))?.rate24Hour).toBeCloseTo(mean([...inWindow, 180_000]), 1);
    await uploadCycle(t.app, farm, ++seq, [rate(0, 200_000, thisHour[1]!)]);
    expect((await rowOf(minerIp(0)))?.rate24Hour).toBeCloseTo(mean([...inWindow, 180_000, 200_000]), 1);
    // The kept sums are those of the history: the same figure when they are cleared and read from the history.
    const row = await t.db.selectFrom('miners').select('stat_day_sums').where('agent_key', '=', farm.agentKey).where('ip', '=', minerIp(0)).executeTakeFirstOrThrow();
    expect(row.stat_day_sums).toEqual([inWindow.reduce((a, b) => a + b, 0), inWindow.length]);
  });

  it('reads the history for a miner without a reading this hour, and for a row whose sums are not kept yet', async () => {
    const inWindow = plan.filter(([h, , r1]) => h < 23 && r1 !== null).map(([, , r1]) => r1!);
    expect((await rowOf(minerIp(1)))?.rate24Hour).toBeCloseTo(mean(inWindow), 1);
    const before = (await rowOf(minerIp(0)))?.rate24Hour;
    await t.db.updateTable('miners').set({ stat_day_sums: null }).where('agent_key', '=', farm.agentKey).execute();
    expect((await rowOf(minerIp(0)))?.rate24Hour).toBeCloseTo(before!, 6);
  });

  it('sorts by it', async () => {
    const asc = (await listMiners(admin, farm.agentKey, { sort: 'rate24Hour', order: 'asc' })).list.map((r) => r.ip);
    const desc = (await listMiners(admin, farm.agentKey, { sort: 'rate24Hour', order: 'desc' })).list.map((r) => r.ip);
    expect(asc).toEqual([minerIp(0), minerIp(1)]);
    expect(desc).toEqual([minerIp(1), minerIp(0)]);
  });
});
