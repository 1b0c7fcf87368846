/**
 * GET /api/dashboard/summary and /series: counters, period panels (today, 3 days, 1 week) from per-cycle rows
 * seeded in SQL with known values (through the hourly roll-up the trigger keeps), the temperature distribution of
 * the online miners, the offline miners per reason and the zones holding most of them, the chart ranges, a farm
 * without miners, permissions.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { DashboardSummary } from '@shared/schemas/miner-records';
import { minerIp, minerSnapshot, readingTempMax } from '../support/miner-snapshots';
import { type Client, type TestApp, body, createFarm, createMember, createTestApp, setupAdmin, uploadBatch } from './harness';

describe('dashboard summary', () => {
  let t: TestApp;
  let admin: Client;
  let farmA: { agentKey: string; secret: string };
  let farmB: { agentKey: string; secret: string };
  /** Sub-areas "Hall A / Row 1" and "Hall A / Row 2". */
  let rows: number[] = [];
  // Miners 8, 18 and 28 are offline: two with the agent's reason "no answer" (-110), one with none recorded; an
  // online miner carrying a reason code is not an offline one.
  const reasons: Record<number, number> = { 8: -110, 18: -110, 5: -111 };
  const snaps = Array.from({ length: 30 }, (_, i) => {
    const s = minerSnapshot(i, { takenAt: new Date().toISOString() });
    const code = reasons[i];
    return code === undefined ? s : { ...s, errorCodes: [{ code, message: 'agent' }, ...s.errorCodes] };
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await setupAdmin(t.app);
    farmA = await createFarm(admin, 'dash-a');
    farmB = await createFarm(admin, 'dash-b');
    const batch: SnapshotBatch = { agentVersion: '1.4.2', batchSeq: 1, cycleStartedAt: new Date().toISOString(), cycleDurationMs: 8000, snapshots: snaps };
    const res = await uploadBatch(t.app, farmA, batch);
    expect(res.statusCode, res.body).toBe(200);
    // Two rows of a hall: miners 0–19 (offline: 8 and 18) and 20–29 (offline: 28). Before any summary is kept.
    const area = async (name: string, parentId?: number) =>
      body<{ id: number }>(await admin.post('/api/minerv2/agentSubArea/save', { agentKey: farmA.agentKey, name, ...(parentId ? { parentId } : {}) })).data.id;
    const hall = await area('Hall A');
    rows = [await area('Row 1', hall), await area('Row 2', hall)];
    for (const [id, from, to] of [[rows[0]!, 0, 19], [rows[1]!, 20, 29]] as const) {
      const seg = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: farmA.agentKey, areaId: id, segments: `${minerIp(from)}-${minerIp(to)}` });
      expect(seg.statusCode, seg.body).toBe(200);
    }
    // Replace the ingest's own rows by a known history: one row per minute over 8 days; rows within the last
    // 3 days have real 900 / ideal 1000, 10 total / 9 online / 6 qualified, temp 70 / 60; older rows real 500,
    // 10 / 5 / 5, temp 90 / 80.
    await sql`delete from farm_stats_minute where agent_key = ${farmA.agentKey}`.execute(t.db);
    await sql`delete from farm_stats_hour where agent_key = ${farmA.agentKey}`.execute(t.db);
    await sql`
      insert into farm_stats_minute (agent_key, at, real_ghs, ideal_ghs, total, online, qualified, temp_max, temp_avg)
      select ${farmA.agentKey}, g,
        case when g >= now() - interval '3 days' then 900 else 500 end, 1000, 10,
        case when g >= now() - interval '3 days' then 9 else 5 end,
        case when g >= now() - interval '3 days' then 6 else 5 end,
        case when g >= now() - interval '3 days' then 70 else 90 end,
        case when g >= now() - interval '3 days' then 60 else 80 end
      from generate_series(date_trunc('minute', now()) - interval '8 days', date_trunc('minute', now()) - interval '1 minute', interval '1 minute') g
    `.execute(t.db);
  }, 180_000);
  afterAll(async () => t.close());

  const summary = async (agentKey: string, client: Client = admin, extra: Record<string, string> = {}) => {
    const res = await client.get('/api/dashboard/summary', { agentKey, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return body<DashboardSummary>(res).data;
  };

  it('averages today, 3 days and 1 week from the per-cycle rows', async () => {
    const s = await summary(farmA.agentKey);
    expect(s.panels.map((p) => p.period)).toEqual(['today', '3d', '1w']);
    const [today, d3, w1] = s.panels as [DashboardSummary['panels'][number], DashboardSummary['panels'][number], DashboardSummary['panels'][number]];
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    expect(today.from).toBe(midnight.toISOString());
    expect(today).toMatchObject({ realGhs: 900, idealGhs: 1000, efficiency: 90, onlineRate: 90, qualifiedRate: 66.67, tempMax: 70, tempAvg: 60 });
    // Periods start at the hour: up to 59 older rows are in the 3-day figures.
    expect(d3.samples).toBeGreaterThanOrEqual(3 * 1440 - 2);
    expect(d3.samples).toBeLessThanOrEqual(3 * 1440 + 60);
    expect(d3.realGhs!).toBeGreaterThan(894);
    expect(d3.onlineRate!).toBeGreaterThan(89.4);
    // 1 week: 3 days at 900 and 4 days at 500 → 671.43 (± the minute edges).
    expect(w1.samples).toBeGreaterThanOrEqual(7 * 1440 - 2);
    expect(Math.abs(w1.realGhs! - (3 * 900 + 4 * 500) / 7)).toBeLessThan(2.5); // ± the rows of the period's first hour
    expect(w1.tempMax).toBe(90);
    expect(Math.abs(w1.tempAvg! - (3 * 60 + 4 * 80) / 7)).toBeLessThan(0.2);
    expect(Math.abs(w1.efficiency! - ((3 * 900 + 4 * 500) / 7 / 1000) * 100)).toBeLessThan(0.25);
  });

  it('starts "today" at the viewer\'s midnight', async () => {
    const s = await summary(farmA.agentKey, admin, { tzOffsetMin: '480' });
    const local = new Date(Date.now() + 480 * 60_000);
    local.setUTCHours(0, 0, 0, 0);
    expect(s.panels[0]?.from).toBe(new Date(local.getTime() - 480 * 60_000).toISOString());
  });

  it('distributes the online miners by their highest temperature', async () => {
    const s = await summary(farmA.agentKey);
    const online = snaps.filter((x) => x.online);
    const temps = online.map((x) => readingTempMax(x)).filter((v): v is number => v !== null);
    expect(s.temperature.online).toBe(online.length);
    expect(s.temperature.buckets.map((b) => [b.from, b.to])).toEqual([[0, 40], [40, 50], [50, 60], [60, 70], [70, 80], [80, 90], [90, null]]);
    expect(s.temperature.buckets.reduce((a, b) => a + b.count, 0) + s.temperature.unknown).toBe(online.length);
    for (const b of s.temperature.buckets) {
      expect(b.count, `${b.from}-${b.to}`).toBe(temps.filter((v) => v >= b.from && (b.to === null || v < b.to)).length);
    }
    expect(s.temperature.max).toBeCloseTo(Math.max(...temps), 1);
    expect(s.temperature.avg!).toBeCloseTo(temps.reduce((a, b) => a + b, 0) / temps.length, 0);
  });

  it('counts the miners by state and fault now', async () => {
    const { counters: c } = await summary(farmA.agentKey);
    expect(c.total).toBe(snaps.length);
    expect(c.online).toBe(snaps.filter((x) => x.online).length);
    expect(c.offline).toBe(snaps.filter((x) => !x.online).length);
    expect(c.qualified).toBe(snaps.filter((x) => x.state.qualified).length);
    expect(c.offline24h).toBe(0);
    for (const f of ['missing-chip', 'high-temperature'] as const) expect(c.faults[f], f).toBe(snaps.filter((x) => x.faultLabels.includes(f)).length);
    expect(c.topFaults.map((f) => f.count)).toEqual([...c.topFaults.map((f) => f.count)].sort((a, b) => b - a));
    expect(c.topFaults.every((f) => f.count > 0)).toBe(true);
  });

  it('counts the offline miners per reason their agent gave', async () => {
    const { counters: c } = await summary(farmA.agentKey);
    expect(snaps.filter((x) => !x.online).map((x) => x.ip)).toHaveLength(3);
    expect(c.offlineReasons).toEqual([{ code: -110, count: 2 }]);
    expect(c.offline - c.offlineReasons.reduce((a, r) => a + r.count, 0)).toBe(1);
  });

  it('names the zones holding the most offline miners', async () => {
    const { counters: c } = await summary(farmA.agentKey);
    expect(c.offlineZones).toEqual([
      { id: String(rows[0]), path: 'Hall A / Row 1', count: 2 },
      { id: String(rows[1]), path: 'Hall A / Row 2', count: 1 },
    ]);
  });

  it('names the zones as they are right after a zone edit (the kept figures are made again)', async () => {
    expect((await summary(farmA.agentKey)).counters.offlineZones[0]?.path).toBe('Hall A / Row 1'); // kept now
    const rename = async (name: string) => {
      const res = await admin.post('/api/minerv2/agentSubArea/save', { agentKey: farmA.agentKey, id: rows[0], name });
      expect(res.statusCode, res.body).toBe(200);
    };
    await rename('Row 1 (west)');
    try {
      expect((await summary(farmA.agentKey)).counters.offlineZones[0]?.path).toBe('Hall A / Row 1 (west)');
      // A segment taken away: its miners are in no zone any more.
      const segs = body<{ list: { id: string; areaId: number }[] }>(await admin.get('/api/minerv2/agentSubIp/list', { agentKey: farmA.agentKey, page: '1', pageSize: '50' })).data.list;
      const row2 = segs.filter((s) => s.areaId === rows[1]);
      expect(row2).toHaveLength(1);
      expect((await admin.post('/api/minerv2/agentSubIp/delete', { agentKey: farmA.agentKey, ids: row2.map((s) => s.id).join(',') })).statusCode).toBe(200);
      expect((await summary(farmA.agentKey)).counters.offlineZones.map((z) => z.path)).toEqual(['Hall A / Row 1 (west)']);
      const back = await admin.post('/api/minerv2/agentSubIp/save', { agentKey: farmA.agentKey, areaId: rows[1], segments: `${minerIp(20)}-${minerIp(29)}` });
      expect(back.statusCode, back.body).toBe(200);
    } finally {
      await rename('Row 1');
    }
    expect((await summary(farmA.agentKey)).counters.offlineZones.map((z) => z.path)).toEqual(['Hall A / Row 1', 'Hall A / Row 2']);
  });

  it('gives the chart ranges from the minute rows (last hour) and the hourly roll-up (30 days, 1 year)', async () => {
    const series = async (range: string) => body<{ at: string; realGhs: number; idealGhs: number }[]>(await admin.get('/api/dashboard/series', { agentKey: farmA.agentKey, range })).data;
    const hour = await series('hour');
    expect(hour.length).toBeGreaterThanOrEqual(58);
    expect(hour.length).toBeLessThanOrEqual(60);
    expect(hour.every((p) => p.realGhs === 900 && p.idealGhs === 1000)).toBe(true);
    const d30 = await series('30d');
    expect(d30.length).toBeGreaterThanOrEqual(8 * 24);
    expect(d30.length).toBeLessThanOrEqual(8 * 24 + 1);
    expect(d30.at(-1)?.realGhs).toBe(900);
    expect(d30[0]?.realGhs).toBe(500);
    const y1 = await series('1y');
    expect(y1.length).toBeGreaterThanOrEqual(8);
    expect(y1.length).toBeLessThanOrEqual(9);
    expect((await admin.get('/api/dashboard/series', { agentKey: farmA.agentKey, range: 'week' })).statusCode).toBe(400);
  });

  it('keeps the hourly roll-up equal to the minute rows when a cycle is rewritten', async () => {
    const minute = sql`date_trunc('minute', now()) - interval '2 minutes'`;
    await sql`update farm_stats_minute set real_ghs = 300, temp_avg = null where agent_key = ${farmA.agentKey} and at = ${minute}`.execute(t.db);
    const { rows } = await sql<{ ok: boolean }>`
      select bool_and(abs(h.real_sum - m.real) < 1e-6 and h.samples = m.n and h.temp_avg_n = m.tn) as ok
      from farm_stats_hour h join (select date_trunc('hour', at, 'UTC') as at, sum(real_ghs) as real, count(*)::int as n, count(temp_avg)::int as tn
        from farm_stats_minute where agent_key = ${farmA.agentKey} group by 1) m on m.at = h.at
      where h.agent_key = ${farmA.agentKey}
    `.execute(t.db);
    expect(rows[0]?.ok).toBe(true);
  });

  it('answers empty figures for a farm without miners', async () => {
    const s = await summary(farmB.agentKey);
    expect(s.panels.every((p) => p.samples === 0 && p.realGhs === null && p.onlineRate === null)).toBe(true);
    expect(s.temperature).toMatchObject({ online: 0, max: null, avg: null, unknown: 0 });
    expect(s.counters).toMatchObject({ total: 0, online: 0, topFaults: [], offlineReasons: [], offlineZones: [] });
  });

  it('needs the miners key (like every miner read) and membership; refuses a bad offset', async () => {
    const other = (await createMember(admin, 'dash-other', [1000, 10000], [farmB.agentKey])).client;
    const none = (await createMember(admin, 'dash-none', [1000], [farmA.agentKey])).client;
    const reader = (await createMember(admin, 'dash-reader', [1000, 10000], [farmA.agentKey])).client;
    expect((await reader.get('/api/dashboard/summary', { agentKey: farmA.agentKey })).statusCode).toBe(200);
    expect((await reader.get('/api/dashboard/series', { agentKey: farmA.agentKey })).statusCode).toBe(200);
    expect((await other.get('/api/dashboard/series', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    expect((await none.get('/api/dashboard/series', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    expect((await other.get('/api/dashboard/summary', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    expect((await none.get('/api/dashboard/summary', { agentKey: farmA.agentKey })).statusCode).toBe(403);
    expect((await admin.get('/api/dashboard/summary', { agentKey: farmA.agentKey, tzOffsetMin: '9999' })).statusCode).toBe(400);
    expect((await admin.get('/api/dashboard/summary', {})).statusCode).toBe(400);
  });
});
