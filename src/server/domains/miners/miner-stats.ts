/**
 * Miner statistics (spec 3 §7 /api/miner/stat, indexStat, modelstat) and history series, aggregated in SQL.
 *
 * Definitions:
 * - 8-hour qualified: an online miner with at least one hourly sample in the last 8 hourly buckets
 *   (the current one included) and, in every such bucket, online in every sample and an average real
 *   hashrate ≥ 80 % of its average ideal hashrate (ideal > 0) — spec 3 §9 "qualified".
 * - Offline over 24 hours: an offline miner whose last reading (takenAt) is older than 24 hours.
 * - Online rate = online / total; qualified rate = qualified / online (spec 3 §9 "normal over active").
 */
import { sql } from 'kysely';
import { MINER_FAULT_LABELS } from '@shared/miner-labels';
import type { FaultLabel } from '@shared/schemas/miner-snapshot';
import type { FarmSeriesPoint, FarmSeriesRange, MinerFilter, MinerHistoryPoint, MinerHistoryRange, MinerIndexStat, MinerModelStat, MinerStat } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { iso, minerWhere, statusCondition } from './miner-sql';

const COUNTED = ['online', 'offline', 'qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower'] as const;

export async function getMinerStat(db: DB, agentKey: string, filter: MinerFilter): Promise<MinerStat> {
  const counters = COUNTED.map((s) => sql`count(*) filter (where ${statusCondition(s)})::int as ${sql.ref(s)}`);
  const faults = MINER_FAULT_LABELS.map((f, i) => sql`count(*) filter (where m.fault_labels @> array[${f}]::text[])::int as ${sql.ref(`f${i}`)}`);
  const { rows } = await sql<Record<string, number>>`
    select count(*)::int as total, ${sql.join([...counters, ...faults])},
      count(*) filter (where not m.online and m.taken_at < now() - interval '24 hours')::int as offline24h,
      count(*) filter (where m.online and exists (select 1 from miner_stats_hour h where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '7 hours')
        and not exists (select 1 from miner_stats_hour h where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '7 hours'
                        and not (h.online_samples = h.samples and h.ideal_sum > 0 and h.real_sum >= 0.8 * h.ideal_sum)))::int as qualified8h
    from miners m where ${minerWhere(agentKey, filter)}
  `.execute(db);
  const r = rows[0] ?? {};
  const n = (k: string) => r[k] ?? 0;
  return {
    total: n('total'),
    online: n('online'),
    offline: n('offline'),
    qualified: n('qualified'),
    unqualified: n('unqualified'),
    zeroHashrate: n('zeroHashrate'),
    cannotStart: n('cannotStart'),
    illegalPool: n('illegalPool'),
    abnormalIdeal: n('abnormalIdeal'),
    sleeping: n('sleeping'),
    lowPower: n('lowPower'),
    faults: Object.fromEntries(MINER_FAULT_LABELS.map((f, i) => [f, n(`f${i}`)])) as Record<FaultLabel, number>,
    qualified8h: n('qualified8h'),
    offline24h: n('offline24h'),
  };
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part * 10_000) / whole) / 100 : 0);

export async function getIndexStat(db: DB, agentKey: string): Promise<MinerIndexStat> {
  const { rows } = await sql<{
    total: number;
    online: number;
    qualified: number;
    real: number;
    ideal: number;
    temp_max: number | null;
    temp_avg: number | null;
    updated_at: Date | string | null;
  }>`
    select count(*)::int as total,
      count(*) filter (where m.online)::int as online,
      count(*) filter (where m.online and coalesce((m.state ->> 'qualified')::boolean, false))::int as qualified,
      coalesce(sum(m.rt5s) filter (where m.online), 0)::float8 as real,
      coalesce(sum(m.ideal), 0)::float8 as ideal,
      max(m.temp_max) filter (where m.online) as temp_max,
      avg(m.temp_max) filter (where m.online) as temp_avg,
      max(m.taken_at) as updated_at
    from miners m where m.agent_key = ${agentKey}
  `.execute(db);
  const { rows: faults } = await sql<{ label: FaultLabel; count: number }>`
    select f as label, count(*)::int as count from miners m, unnest(m.fault_labels) f
    where m.agent_key = ${agentKey} group by f order by count(*) desc, f
  `.execute(db);
  const r = rows[0];
  const total = r?.total ?? 0;
  const online = r?.online ?? 0;
  const qualified = r?.qualified ?? 0;
  return {
    total,
    online,
    qualified,
    onlineRate: pct(online, total),
    qualifiedRate: pct(qualified, online),
    realGhs: r?.real ?? 0,
    idealGhs: r?.ideal ?? 0,
    tempMax: r?.temp_max ?? null,
    tempAvg: r?.temp_avg === null || r?.temp_avg === undefined ? null : Math.round(r.temp_avg * 10) / 10,
    topFaults: faults.slice(0, 5),
    updatedAt: iso(r?.updated_at ?? null),
  };
}

export async function getModelStats(db: DB, agentKey: string): Promise<MinerModelStat[]> {
  const { rows } = await sql<{ model: string; make: string; count: number; online: number; qualified: number; real: number; ideal: number }>`
    select m.model, min(m.make) as make, count(*)::int as count,
      count(*) filter (where m.online)::int as online,
      count(*) filter (where m.online and coalesce((m.state ->> 'qualified')::boolean, false))::int as qualified,
      coalesce(sum(m.rt5s) filter (where m.online), 0)::float8 as real,
      coalesce(sum(m.ideal), 0)::float8 as ideal
    from miners m where m.agent_key = ${agentKey}
    group by m.model order by count(*) desc, m.model
  `.execute(db);
  return rows.map((r) => ({ model: r.model, make: r.make, count: r.count, online: r.online, qualified: r.qualified, realGhs: r.real, idealGhs: r.ideal }));
}

/** Bucket size and window of each history range. */
const HISTORY: Record<MinerHistoryRange, { unit: string; window: string }> = {
  hour: { unit: 'hour', window: '23 hours' },
  day: { unit: 'day', window: '29 days' },
  month: { unit: 'month', window: '11 months' },
};

/** hour: hourly points of the last 24 h; day: daily points of the last 30 days; month: monthly points of the last 12 months. */
export async function getMinerHistory(db: DB, minerId: string, range: MinerHistoryRange): Promise<MinerHistoryPoint[]> {
  const { unit, window } = HISTORY[range];
  const u = sql.lit(unit);
  const { rows } = await sql<{ at: Date | string; samples: number; real: number; ideal: number; temp_max: number | null; online: number }>`
    select date_trunc(${u}, h.at) as at, sum(h.samples)::int as samples,
      sum(h.real_sum) / nullif(sum(h.samples), 0) as real,
      sum(h.ideal_sum) / nullif(sum(h.samples), 0) as ideal,
      max(h.temp_max) as temp_max,
      sum(h.online_samples)::float8 / nullif(sum(h.samples), 0) as online
    from miner_stats_hour h
    where h.miner_id = ${minerId} and h.at >= date_trunc(${u}, now()) - ${sql.lit(window)}::interval
    group by 1 order by 1
  `.execute(db);
  return rows.map((r) => ({
    at: iso(r.at) ?? '',
    samples: r.samples,
    realGhs: Math.round((r.real ?? 0) * 100) / 100,
    idealGhs: Math.round((r.ideal ?? 0) * 100) / 100,
    tempMax: r.temp_max,
    onlineRatio: Math.round((r.online ?? 0) * 1000) / 1000,
  }));
}

const SERIES: Record<FarmSeriesRange, { unit: string; window: string }> = {
  hour: { unit: 'minute', window: '24 hours' },
  '30d': { unit: 'hour', window: '30 days' },
  '1y': { unit: 'day', window: '365 days' },
};

/** hour: one point per minute over the last 24 h; 30d: per hour over 30 days; 1y: per day over a year. */
export async function getFarmSeries(db: DB, agentKey: string, range: FarmSeriesRange): Promise<FarmSeriesPoint[]> {
  const { unit, window } = SERIES[range];
  const u = sql.lit(unit);
  const { rows } = await sql<{ at: Date | string; real: number; ideal: number; total: number; online: number; qualified: number; temp_max: number | null; temp_avg: number | null }>`
    select date_trunc(${u}, f.at) as at, avg(f.real_ghs) as real, avg(f.ideal_ghs) as ideal,
      avg(f.total)::float8 as total, avg(f.online)::float8 as online, avg(f.qualified)::float8 as qualified,
      max(f.temp_max) as temp_max, avg(f.temp_avg) as temp_avg
    from farm_stats_minute f
    where f.agent_key = ${agentKey} and f.at >= date_trunc(${u}, now() - ${sql.lit(window)}::interval)
    group by 1 order by 1
  `.execute(db);
  const r1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return rows.map((r) => ({
    at: iso(r.at) ?? '',
    realGhs: Math.round(r.real * 100) / 100,
    idealGhs: Math.round(r.ideal * 100) / 100,
    total: Math.round(r.total),
    online: Math.round(r.online),
    qualified: Math.round(r.qualified),
    tempMax: r.temp_max,
    tempAvg: r1(r.temp_avg),
  }));
}
