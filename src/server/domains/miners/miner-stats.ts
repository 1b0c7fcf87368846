/**
 * Miner statistics (spec 3 §7 /api/miner/stat, indexStat, modelstat) and history series, aggregated in SQL.
 *
 * Definitions:
 * - 8-hour qualified: an online miner with at least one hourly sample in the last 8 hourly buckets
 *   (the current one included) and, in every such bucket, online in every sample and an average real
 *   hashrate ≥ 80 % of its average ideal hashrate (ideal > 0) — spec 3 §9 "qualified". Read from figures the
 *   ingest keeps on the miner's row (STAT_HOUR_UPSERT, migration 202611230220), not from miner_stats_hour.
 * - Offline over 24 hours: an offline miner whose last reading (takenAt) is older than 24 hours.
 * - Online rate = online / total; qualified rate = qualified / online (spec 3 §9 "normal over active").
 * - The farm series' 30-day and 1-year ranges read the hourly roll-up farm_stats_hour (720 / 8,760 rows), like
 *   the dashboard's chart, instead of up to 525,600 per-minute rows.
 */
import { type RawBuilder, sql } from 'kysely';
import type { FarmSeriesPoint, FarmSeriesRange, MinerFilter, MinerHistoryPoint, MinerHistoryRange, MinerIndexStat, MinerModelStat, MinerStat } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { bucketQualified, counterItems, countersOf, faultCounts, faultsOf, iso, minerWhere, statusCondition, topFaultsOf } from './miner-sql';
import { DataStampCache, type Stamps, filterKey, hasOffShelf, stampCovers, stampsOf, stampsSql } from './miner-stamps';

/**
 * {real_sum, samples} of the miner's (miners row, before the update) whole hours in the 23 hours before `hour`: its
 * history rows, and its bucket on the row when that is one of those hours (the bucket the same update closes: it
 * reaches the history in the same statement, too late for this read).
 */
const daySums = (hour: RawBuilder<unknown>) =>
  sql`(select array[coalesce(sum(h.real_sum), 0) + case when ${inDay(hour)} then miners.stat_hour_real_sum else 0 end,
                    coalesce(sum(h.samples), 0) + case when ${inDay(hour)} then miners.stat_hour_samples else 0 end]
       from miner_stats_hour h where h.miner_id = miners.id and h.at >= ${hour} - interval '23 hours' and h.at < ${hour})`;
/** The row's bucket is one of the 23 whole hours before `hour`. */
const inDay = (hour: RawBuilder<unknown>) => sql`miners.stat_hour_at >= ${hour} - interval '23 hours' and miners.stat_hour_at < ${hour}`;

/** The bucket on the row (alias `miners`) as stat_hour_closed holds it: {epoch seconds of its hour, samples, online, real, ideal, temp max}. */
const BUCKET = sql`array[extract(epoch from miners.stat_hour_at), miners.stat_hour_samples, miners.stat_hour_online,
  miners.stat_hour_real_sum, miners.stat_hour_ideal_sum, miners.stat_hour_temp_max]::float8[]`;

/**
 * SET items of the ingest's miners upsert (src/server/domains/miners/ingest-snapshots.ts; `miners` = the stored row,
 * `excluded` = the new reading with stat_hour_at = its hour and its one-sample sums): the miner's current hourly
 * bucket (migration 202611230410: the history gets it when it closes, through stat_hour_closed), the latest earlier
 * hour whose bucket did not qualify, and the sums of the 23 whole hours before the bucket (migration 202611230340) —
 * read from the history only when the reading starts a new hour (once an hour per miner). The upsert only applies
 * readings not older than the stored one, so the hour never goes back.
 */
export const STAT_HOUR_UPSERT = sql`
  stat_day_sums = case when miners.stat_hour_at is distinct from excluded.stat_hour_at or miners.stat_day_sums is null
    then ${daySums(sql`excluded.stat_hour_at`)} else miners.stat_day_sums end,
  stat_unqualified_hour_at = case
    when miners.stat_hour_at is distinct from excluded.stat_hour_at
      and not ${bucketQualified(sql`miners.stat_hour_samples`, sql`miners.stat_hour_online`, sql`miners.stat_hour_real_sum`, sql`miners.stat_hour_ideal_sum`)}
    then miners.stat_hour_at else miners.stat_unqualified_hour_at end,
  stat_hour_closed = case when miners.stat_hour_at is distinct from excluded.stat_hour_at and miners.stat_hour_samples > 0 then ${BUCKET} end,
  stat_hour_samples = case when miners.stat_hour_at = excluded.stat_hour_at then miners.stat_hour_samples + excluded.stat_hour_samples else excluded.stat_hour_samples end,
  stat_hour_online = case when miners.stat_hour_at = excluded.stat_hour_at then miners.stat_hour_online + excluded.stat_hour_online else excluded.stat_hour_online end,
  stat_hour_real_sum = case when miners.stat_hour_at = excluded.stat_hour_at then miners.stat_hour_real_sum + excluded.stat_hour_real_sum else excluded.stat_hour_real_sum end,
  stat_hour_ideal_sum = case when miners.stat_hour_at = excluded.stat_hour_at then miners.stat_hour_ideal_sum + excluded.stat_hour_ideal_sum else excluded.stat_hour_ideal_sum end,
  stat_hour_temp_max = case when miners.stat_hour_at = excluded.stat_hour_at then greatest(miners.stat_hour_temp_max, excluded.stat_hour_temp_max) else excluded.stat_hour_temp_max end,
  stat_hour_at = excluded.stat_hour_at`;

/**
 * A farm's counters are kept per filter (GET /api/miner/stat: every console on the miner list asks them with the list,
 * again every minute and on every filter change, and counting them reads every miner of the farm — ~120 ms alone at
 * 100,000 miners on PostgreSQL; 20 consoles at once waited up to 4 s for them, tests/bench/miner-list.bench.ts). The
 * count reads the index miners_farm_counts only, with the flags and fault labels as bits (migration 202611230400):
 * 100,000 miners 165 → 65 ms on PostgreSQL, 260 → 69 ms on PGlite, where it held every other request meanwhile. A
 * kept answer is given again while the farm's data stamp is the one it was counted at, within the same clock hour
 * (8-hour qualified moves on with the hour) and for at most a minute (offline over 24 hours moves on with the clock):
 * a request reads the stamp (an index lookup) instead of the farm, and concurrent requests share one count
 * (DataStampCache, miner-stamps.ts). Filters on other tables (customer, sub-area) are not covered by the stamp and
 * are counted every time.
 */
const statCache = new DataStampCache<MinerStat>(60_000, 200);

export async function getMinerStat(db: DB, agentKey: string, filter: MinerFilter): Promise<MinerStat> {
  const offShelf = await hasOffShelf(db, agentKey);
  if (!stampCovers(filter)) return (await countStat(db, agentKey, filter, offShelf)).value;
  return statCache.get(db, agentKey, filterKey(agentKey, filter, offShelf), () => countStat(db, agentKey, filter, offShelf));
}

/** The counters of the miners matching `filter`, with the farm's data stamp read in the same statement. */
async function countStat(db: DB, agentKey: string, filter: MinerFilter, offShelf: boolean): Promise<{ value: MinerStat; stamps: Stamps }> {
  const { rows } = await sql<Record<string, number> & { stamp: string; identity_stamp: string }>`
    select s.*, c.* from (select ${stampsSql(agentKey)}) s, (
      select count(*)::int as total, ${sql.join(counterItems())},
        count(*) filter (where ${statusCondition('qualified8h')})::int as qualified8h
      from miners m where ${minerWhere(agentKey, filter, offShelf)}
    ) c
  `.execute(db);
  const r = rows[0];
  const n = (k: string) => (r?.[k] as number | undefined) ?? 0;
  const stat: MinerStat = { total: n('total'), ...countersOf(n), qualified8h: n('qualified8h') };
  return { value: stat, stamps: stampsOf(r) };
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part * 10_000) / whole) / 100 : 0);

/**
 * The statistics pages' figures (hashrate overview, model statistics) are kept per farm under its data stamp the same
 * way as the counters (one scan of the farm per change, not per visit); they do not move with the clock, so the
 * minute is only a safety net. Like the list and its counters they count the miners on shelf (minerWhere): a miner
 * taken off shelf for repair is the off-shelf records', not an offline miner of the farm.
 */
const indexStatCache = new DataStampCache<MinerIndexStat>(60_000, 100);
const modelStatsCache = new DataStampCache<MinerModelStat[]>(60_000, 100);

/** The hashrate overview's figures and top faults: one scan of the farm's miners (fault labels counted per label; kept: indexStatCache). */
export async function getIndexStat(db: DB, agentKey: string): Promise<MinerIndexStat> {
  const offShelf = await hasOffShelf(db, agentKey);
  return indexStatCache.get(db, agentKey, filterKey(agentKey, {}, offShelf), () => scanIndexStat(db, agentKey, offShelf));
}

async function scanIndexStat(db: DB, agentKey: string, offShelf: boolean): Promise<{ value: MinerIndexStat; stamps: Stamps }> {
  const { rows } = await sql<{
    stamp: string;
    identity_stamp: string;
    total: number;
    online: number;
    qualified: number;
    real: number;
    ideal: number;
    temp_max: number | null;
    temp_avg: number | null;
    updated_at: Date | string | null;
    [fault: `f${number}`]: number;
  }>`
    select s.*, c.* from (select ${stampsSql(agentKey)}) s, (
      select ${sql.join(faultCounts())}, count(*)::int as total,
        count(*) filter (where m.online)::int as online,
        count(*) filter (where m.online and ${statusCondition('qualified')})::int as qualified,
        coalesce(sum(m.rt5s) filter (where m.online), 0)::float8 as real,
        coalesce(sum(m.ideal), 0)::float8 as ideal,
        max(m.temp_max) filter (where m.online) as temp_max,
        avg(m.temp_max) filter (where m.online) as temp_avg,
        max(m.taken_at) as updated_at
      from miners m where ${minerWhere(agentKey, {}, offShelf)}
    ) c
  `.execute(db);
  const r = rows[0];
  const faults = topFaultsOf(faultsOf((column) => (r?.[column as `f${number}`] as number | undefined) ?? 0));
  const total = r?.total ?? 0;
  const online = r?.online ?? 0;
  const qualified = r?.qualified ?? 0;
  const value: MinerIndexStat = {
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
  return { value, stamps: stampsOf(r) };
}

/** Per model: count, online, qualified, real and ideal hashrate; most numerous first (kept: modelStatsCache). */
export async function getModelStats(db: DB, agentKey: string): Promise<MinerModelStat[]> {
  const offShelf = await hasOffShelf(db, agentKey);
  return modelStatsCache.get(db, agentKey, filterKey(agentKey, {}, offShelf), () => scanModelStats(db, agentKey, offShelf));
}

async function scanModelStats(db: DB, agentKey: string, offShelf: boolean): Promise<{ value: MinerModelStat[]; stamps: Stamps }> {
  // The stamps come with every model's row, and alone (count null) for a farm without miners.
  const { rows } = await sql<{ stamp: string; identity_stamp: string; model: string; make: string; count: number | null; online: number; qualified: number; real: number; ideal: number }>`
    select s.*, c.* from (select ${stampsSql(agentKey)}) s left join (
      select m.model, min(m.make) as make, count(*)::int as count,
        count(*) filter (where m.online)::int as online,
        count(*) filter (where m.online and ${statusCondition('qualified')})::int as qualified,
        coalesce(sum(m.rt5s) filter (where m.online), 0)::float8 as real,
        coalesce(sum(m.ideal), 0)::float8 as ideal
      from miners m where ${minerWhere(agentKey, {}, offShelf)}
      group by m.model
    ) c on true
    order by c.count desc nulls last, c.model
  `.execute(db);
  const value = rows
    .filter((r) => r.count !== null)
    .map((r) => ({ model: r.model, make: r.make, count: r.count ?? 0, online: r.online, qualified: r.qualified, realGhs: r.real, idealGhs: r.ideal }));
  return { value, stamps: stampsOf(rows[0]) };
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
    from miner_hours h
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

type FarmSeriesRow = { at: Date | string; real: number; ideal: number; total: number; online: number; qualified: number; temp_max: number | null; temp_avg: number | null };

/**
 * hour: one point per minute over the last 24 h (farm_stats_minute); 30d: per hour over 30 days; 1y: per day over a
 * year — both from the hourly roll-up farm_stats_hour (UTC hours; the same averages as over its minute rows).
 */
export async function getFarmSeries(db: DB, agentKey: string, range: FarmSeriesRange): Promise<FarmSeriesPoint[]> {
  const { unit, window } = SERIES[range];
  const u = sql.lit(unit);
  const from = sql`date_trunc(${u}, now() - ${sql.lit(window)}::interval)`;
  const { rows } =
    range === 'hour'
      ? await sql<FarmSeriesRow>`
          select date_trunc(${u}, f.at) as at, avg(f.real_ghs) as real, avg(f.ideal_ghs) as ideal,
            avg(f.total)::float8 as total, avg(f.online)::float8 as online, avg(f.qualified)::float8 as qualified,
            max(f.temp_max) as temp_max, avg(f.temp_avg) as temp_avg
          from farm_stats_minute f
          where f.agent_key = ${agentKey} and f.at >= ${from}
          group by 1 order by 1
        `.execute(db)
      : await sql<FarmSeriesRow>`
          select date_trunc(${u}, h.at) as at, sum(h.real_sum) / sum(h.samples) as real, sum(h.ideal_sum) / sum(h.samples) as ideal,
            sum(h.total_sum)::float8 / sum(h.samples) as total, sum(h.online_sum)::float8 / sum(h.samples) as online,
            sum(h.qualified_sum)::float8 / sum(h.samples) as qualified, max(h.temp_max) as temp_max,
            sum(h.temp_avg_sum) / nullif(sum(h.temp_avg_n), 0) as temp_avg
          from farm_stats_hour h
          where h.agent_key = ${agentKey} and h.at >= ${from} and h.samples > 0
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
