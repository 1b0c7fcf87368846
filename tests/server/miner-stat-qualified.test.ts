/**
 * /api/miner/stat's 8-hour qualified count, read from the figures the ingest keeps on each miner (the latest hourly
 * bucket, the latest earlier unqualified hour; migration 202611230220): several readings per hour, recoveries and
 * failures inside an hour, failures just inside and just outside the 8-hour window, offline samples. Checked against
 * the definition computed from the hourly history (miner_hours: the rows the same ingest writes and each miner's current
 * bucket), also after the migration refills the figures from those rows (with the current hours put back into the
 * history rows for it, as before migration 202611230410, and taken out again).
 */
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerStat } from '@shared/schemas/miner';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { down, up } from '@server/db/migrations/202611230220_store_miner_qualified_hours';
import { down as downHours, up as upHours } from '@server/db/migrations/202611230410_keep_current_hour_on_miner';
import { minerIp, minerSnapshot } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createTestApp, setupAdmin, uploadBatch } from './harness';

const HOUR_MS = 3_600_000;
const IDEAL = 100_000;
/** Readings per miner as [hours ago, minute in that hour, real / ideal, online]. */
type Reading = [number, number, number, boolean];
const PLANS: Array<{ name: string; qualified: boolean; readings: Reading[] }> = [
  { name: 'good in all 8 hours', qualified: true, readings: [7, 6, 5, 4, 3, 2, 1, 0].map((h) => [h, 5, 0.95, true]) },
  { name: 'only the current hour, good', qualified: true, readings: [[0, 1, 0.9, true]] },
  { name: 'a weak sample, hour average still ≥ 80 %', qualified: true, readings: [[1, 2, 0.7, true], [1, 30, 1, true], [0, 1, 0.9, true]] },
  { name: 'the current hour recovers', qualified: true, readings: [[0, 1, 0.5, true], [0, 2, 1.0, true], [0, 3, 1.0, true]] },
  { name: 'the current hour drops below', qualified: false, readings: [[1, 5, 1, true], [0, 1, 0.9, true], [0, 2, 0.5, true]] },
  { name: 'last sample good, current hour average below', qualified: false, readings: [[0, 1, 0.2, true], [0, 2, 0.9, true]] },
  { name: 'last sample weak, current hour average good', qualified: true, readings: [[0, 1, 1, true], [0, 2, 1, true], [0, 3, 0.7, true]] },
  { name: 'last hour average below, its last sample good', qualified: false, readings: [[1, 1, 0.2, true], [1, 2, 0.9, true], [0, 1, 1, true]] },
  { name: 'a failed hour 7 hours ago', qualified: false, readings: [[7, 5, 0.5, true], [3, 5, 1, true], [0, 5, 1, true]] },
  { name: 'a failed hour 8 hours ago (outside)', qualified: true, readings: [[8, 5, 0.5, true], [7, 5, 1, true], [0, 5, 1, true]] },
  { name: 'an offline sample 2 hours ago', qualified: false, readings: [[2, 5, 1, true], [2, 40, 0, false], [1, 5, 1, true], [0, 5, 1, true]] },
  { name: 'failed long ago, then good', qualified: true, readings: [[30, 5, 0.1, true], [2, 5, 1, true], [0, 5, 1, true]] },
  { name: 'no reading in 8 hours', qualified: false, readings: [[9, 5, 1, true]] },
  { name: 'offline now', qualified: false, readings: [[1, 5, 1, true], [0, 5, 0, false]] },
];

describe('8-hour qualified count', () => {
  let t: TestApp;
  let admin: Client;
  let farm: { agentKey: string; secret: string };
  // Whole hours back from the current hour; the current hour's "minutes" are spread over its part already gone, so
  // no reading lies ahead of now.
  const started = Date.now();
  const hourStart = Math.floor(started / HOUR_MS) * HOUR_MS;
  const timeOf = (h: number, m: number) => (h > 0 ? hourStart - h * HOUR_MS + m * 60_000 : hourStart + Math.floor(((started - hourStart) * m) / 60));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farm = await createFarm(admin, 'q8h-farm');
    // One batch per distinct reading time, oldest first (as the agent uploads them).
    const times = [...new Set(PLANS.flatMap((p) => p.readings.map(([h, m]) => timeOf(h, m))))].sort((a, b) => a - b);
    let seq = 0;
    for (const time of times) {
      const takenAt = new Date(time).toISOString();
      const snapshots: MinerSnapshot[] = [];
      PLANS.forEach((p, i) => {
        for (const [h, m, ratio, online] of p.readings) {
          if (timeOf(h, m) !== time) continue;
          snapshots.push({ ...minerSnapshot(i, { takenAt }), online, rt5s: online ? ratio * IDEAL : 0, ideal: IDEAL });
        }
      });
      seq += 1;
      const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: seq, cycleStartedAt: takenAt, cycleDurationMs: 8000, snapshots };
      const res = await uploadBatch(t.app, farm, batch);
      expect(res.statusCode, res.body).toBe(200);
    }
  }, 180_000);
  afterAll(async () => t?.close());

  /** Per miner, from the hourly rows and from the stored figures: both agree with the plan on every miner. */
  async function expectPerMiner(): Promise<void> {
    const { rows } = await sql<{ ip: string; from_rows: boolean; stored: boolean }>`
      select m.ip,
        m.online and exists (select 1 from miner_hours h where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '7 hours')
          and not exists (select 1 from miner_hours h where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '7 hours'
                          and not (h.online_samples = h.samples and h.ideal_sum > 0 and h.real_sum >= 0.8 * h.ideal_sum)) as from_rows,
        coalesce(m.online and m.stat_hour_at >= date_trunc('hour', now()) - interval '7 hours'
          and m.stat_hour_online = m.stat_hour_samples and m.stat_hour_ideal_sum > 0 and m.stat_hour_real_sum >= 0.8 * m.stat_hour_ideal_sum
          and (m.stat_unqualified_hour_at is null or m.stat_unqualified_hour_at < date_trunc('hour', now()) - interval '7 hours'), false) as stored
      from miners m where m.agent_key = ${farm.agentKey}
    `.execute(t.db);
    const byIp = new Map(rows.map((r) => [r.ip, r]));
    PLANS.forEach((p, i) => {
      const r = byIp.get(minerIp(i));
      expect({ plan: p.name, fromRows: r?.from_rows, stored: r?.stored }).toEqual({ plan: p.name, fromRows: p.qualified, stored: p.qualified });
    });
  }

  it('counts the miners qualified in every hourly bucket of the last 8 hours', async () => {
    const stat = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey })).data;
    expect(stat.total).toBe(PLANS.length);
    expect(stat.qualified8h).toBe(PLANS.filter((p) => p.qualified).length);

    await expectPerMiner();
  });

  it('the migration fills the same figures from the hourly rows of a farm that had no such figures', async () => {
    const before = body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey })).data.qualified8h;
    const db = t.db as unknown as Kysely<unknown>;
    await downHours(db);
    await down(db);
    await up(db);
    await upHours(db);
    expect(body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey })).data.qualified8h).toBe(before);
    expect(before).toBe(PLANS.filter((p) => p.qualified).length);
    await expectPerMiner();
  });

  it('filters like the other counters', async () => {
    const models = [...new Set(PLANS.map((_, i) => minerSnapshot(i, { takenAt: new Date().toISOString() }).model))];
    let sum = 0;
    for (const model of models) sum += body<MinerStat>(await admin.get('/api/miner/stat', { agentKey: farm.agentKey, model })).data.qualified8h;
    expect(sum).toBe(PLANS.filter((p) => p.qualified).length);
  });
});
