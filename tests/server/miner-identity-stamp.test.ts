/**
 * The farm's identity stamp (migration 202611230330) and the list results kept under it (find-miners.ts): a count or
 * ordered id list that depends only on the miners' identities survives an agent cycle that changes only readings,
 * and follows at once every change of an identity — a miner added or removed, a new SN (from the reading or set by
 * hand), a model or firmware change, an IP move.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { cycleReadings, minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, createFarm, createTestApp, listMiners, setupAdmin, uploadCycle } from './harness';

describe('miner list: the identity stamp', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  let other: { agentKey: string; secret: string };
  let seq = 0;
  let minute = 0;

  const upload = async (snapshots: MinerSnapshot[], to = farm) => uploadCycle(t.app, to, ++seq, snapshots);
  /** One cycle's readings of miners 0…n-1, a minute after the previous cycle (so every reading is new). */
  const readings = (n: number, tweak: (s: MinerSnapshot, i: number) => void = () => {}) => {
    minute += 1;
    const takenAt = new Date(Date.UTC(2026, 10, 22, 8, minute)).toISOString();
    return cycleReadings(n, takenAt, (s, i) => {
      s.rt5s += minute; // every cycle a new reading
      tweak(s, i);
    });
  };
  const list = async (query: Record<string, string>, to = farm) => listMiners(admin, to.agentKey, query);
  const stampOf = async (agentKey: string) => {
    const { rows } = await sql<{ stamp: string }>`select stamp::text as stamp from miner_identity_stamps where agent_key = ${agentKey}`.execute(t.db);
    return rows[0]?.stamp ?? null;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'ident-a');
    other = await createFarm(admin, 'ident-b');
    await upload(readings(30));
    await upload(readings(5), other);
  }, 60_000);
  afterAll(async () => t.close());

  it('is bumped by an added, removed or re-identified miner, once per farm, and not by new readings', async () => {
    const a0 = await stampOf(farm.agentKey);
    const b0 = await stampOf(other.agentKey);
    expect(a0).not.toBeNull();
    await upload(readings(30, (s, i) => {
      if (i === 3) s.faultLabels = ['high-temperature'];
    }));
    expect(await stampOf(farm.agentKey)).toBe(a0); // readings only: hashrate, faults, time

    const changes: [string, (s: MinerSnapshot, i: number) => void, number?][] = [
      ['new SN', (s, i) => void (i === 4 && (s.sn = 'SMTTB-NEW-0004'))],
      ['new model', (s, i) => void (i === 5 && (s.model = 'S21 Pro'))],
      ['firmware upgrade', (s, i) => void (i === 6 && (s.firmwareVersion = 'Mon Dec 9 10:00:00 CST 2024'))],
      ['an added miner', () => {}, 31],
      ['20 new SNs in one upload', (s, i) => void (i < 20 && (s.sn = `BATCH-SN-${i}`)), 31],
    ];
    let before = a0;
    for (const [what, tweak, n] of changes) {
      await upload(readings(n ?? 30, tweak));
      const now = await stampOf(farm.agentKey);
      expect(now, what).not.toBe(before);
      before = now;
    }
    expect(await stampOf(other.agentKey)).toBe(b0); // the other farm's results stay kept

    await t.db.deleteFrom('miners').where('agent_key', '=', farm.agentKey).where('ip', '=', minerIp(30)).execute();
    expect(await stampOf(farm.agentKey), 'a removed miner').not.toBe(before);
    before = await stampOf(farm.agentKey);
    const res = await admin.post('/api/miner/updateSn', { agentKey: farm.agentKey, ip: minerIp(7), sn: 'HANDSETSN00000007' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stampOf(farm.agentKey), 'an SN set by hand').not.toBe(before);
    expect(await stampOf(other.agentKey)).toBe(b0);
  });

  it('keeps identity results across a readings-only cycle, and data results not', async () => {
    await upload(readings(30)); // the SNs, model and firmware the previous test changed are back: the cycles below change readings only
    // Asked twice: counted, then (a short result) its ids kept.
    const twice = async (query: Record<string, string>) => (await list(query), (await list(query)).total);
    const total = await twice({});
    const online = await twice({ network: 'online' });
    const s21 = await twice({ model: 'S21' });
    // A miner slipped in without bumping the identity stamp: the kept identity counts show it is their cache that
    // answers (stale on purpose here), while a count of the data stamp sees it at once.
    await sql`alter table miners disable trigger miners_identity_inserted`.execute(t.db);
    try {
      const ghost = minerSnapshot(200, { takenAt: new Date().toISOString() });
      await upload([ghost]);
    } finally {
      await sql`alter table miners enable trigger miners_identity_inserted`.execute(t.db);
    }
    await upload(readings(30)); // an ordinary cycle: readings only
    expect((await list({})).total).toBe(total);
    expect((await list({ model: 'S21' })).total).toBe(s21);
    expect((await list({ network: 'online' })).total).toBeGreaterThan(online);
    // The next identity change (one more miner) makes them count afresh, the slipped-in miner included.
    await upload(readings(32));
    expect((await list({})).total).toBe(total + 3); // the slipped-in miner and miners 30, 31
  });

  it('shows identity changes at once in searches, model and firmware filters and the IP order', async () => {
    const byKeyword = await list({ keyword: 'RENAMED' });
    expect(byKeyword.total).toBe(0);
    const s19 = (await list({ model: 'S19 XP' })).total;
    await list({ sort: 'sn', order: 'asc' });
    await upload(readings(32, (s, i) => {
      if (i === 9) s.sn = 'RENAMED-0009';
      if (i === 10) s.model = 'S19 XP';
      if (i === 11) s.firmwareVersion = 'Fri Oct 3 09:00:00 CST 2025';
    }));
    const found = await list({ keyword: 'RENAMED' });
    expect(found.list.map((r) => [r.ip, r.sn])).toEqual([[minerIp(9), 'RENAMED-0009']]);
    expect((await list({ model: 'S19 XP' })).total).toBe(s19 + 1);
    expect((await list({ firmware: 'Fri Oct 3 09:00:00 CST 2025' })).list.map((r) => r.ip)).toEqual([minerIp(11)]);
    const sns = (await list({ sort: 'sn', order: 'desc', pageSize: '100' })).list.map((r) => r.sn);
    expect(sns.indexOf('RENAMED-0009')).toBe(sns.filter((sn) => sn[0]! > 'R').length); // after the S…, before the others
    // An IP move: the miner leaves its place in the IP order.
    await sql`update miners set ip = '10.9.9.9' where agent_key = ${farm.agentKey} and ip = ${minerIp(0)}`.execute(t.db);
    const last = await list({ page: '4' });
    expect(last.list.at(-1)!.ip).toBe('10.9.9.9');
    expect((await list({ keyword: '10.9.' })).total).toBe(1);
  });
});
