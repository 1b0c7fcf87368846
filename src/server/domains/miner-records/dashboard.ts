/**
 * The dashboard's reads, each a few aggregate queries that stay cheap at 20,000 miners with a year of history:
 * - GET /api/dashboard/summary: miner counters now (states, offline over 24 h, fault labels, why and where miners are
 *   offline) and the temperature distribution of the online miners — one scan of the farm's miners and one of its
 *   offline ones, kept under the farm's data stamp; the period panels (today, 3 days, 1 week — spec 3 §9) from the
 *   hourly roll-up farm_stats_hour (at most 168 rows; periods start at the hour).
 * - GET /api/dashboard/series: real vs ideal over the last hour (per-minute rows, ≤ 60), 30 days (hourly roll-up,
 *   ≤ 720) or a year (hourly roll-up per day, ≤ 8,760 rows read).
 */
import { sql } from 'kysely';
import type { FarmSeriesPoint } from '@shared/schemas/miner';
import type { DashboardCounters, DashboardPeriod, DashboardPeriodPanel, DashboardSeriesRange, DashboardSummary, TempBucket } from '@shared/schemas/miner-records';
import type { DB } from '../../db/kysely';
import { counterItems, countersOf, minerWhere, offlineMinersSql, offlineReasonCounts, offlineReasonsOf, offlineZonesSql, topFaultsOf } from '../miners/miner-sql';
import { DataStampCache, type Stamps, filterKey, hasOffShelf, stampsOf, stampsSql, zoneGeneration } from '../miners/miner-stamps';

/** Temperature bucket edges, °C: below 40, 40–50 … 80–90, 90 and above. */
export const TEMP_EDGES = [40, 50, 60, 70, 80, 90] as const;

const r1 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);
const r2 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 100) / 100);
const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

type MinersNow = { counters: DashboardCounters; temperature: DashboardSummary['temperature'] };
/**
 * The figures now are kept per farm under its data stamp, within the hour and for at most a minute (offline over
 * 24 hours moves on with the clock; miner-stamps.ts DataStampCache): every console showing the dashboard (desks,
 * control-room screens) asks them again every refresh, and they read every miner of the farm.
 */
const nowCache = new DataStampCache<MinersNow>(60_000, 100);

/** Counters and the temperature distribution of the online miners: one scan of the farm's miners (kept: nowCache). */
async function minersNow(db: DB, agentKey: string): Promise<MinersNow> {
  // The miners on shelf, as the list and its counters count them (a miner off shelf for repair is no offline miner).
  const offShelf = await hasOffShelf(db, agentKey);
  // The offline miners' zones come from the farm's sub-areas, which the data stamp does not cover: their edits are in the key.
  const key = `${filterKey(agentKey, {}, offShelf)}\u0000zones ${zoneGeneration(agentKey)}`;
  return nowCache.get(db, agentKey, key, () => scanMiners(db, agentKey, offShelf));
}

async function scanMiners(db: DB, agentKey: string, offShelf: boolean): Promise<{ value: MinersNow; stamps: Stamps }> {
  const bands = TEMP_EDGES.map((e, i) => sql`count(*) filter (where m.online and m.temp_max < ${sql.lit(e)}${i > 0 ? sql` and m.temp_max >= ${sql.lit(TEMP_EDGES[i - 1]!)}` : sql``})::int as ${sql.ref(`t${i}`)}`);
  const { rows } = await sql<Record<string, number | null> & { stamp: string; identity_stamp: string; offline_zones: string }>`
    with offline as materialized (${offlineMinersSql(agentKey, minerWhere(agentKey, {}, offShelf))})
    select s.*, c.*, o.*, (${offlineZonesSql('offline')}) as offline_zones from (select ${stampsSql(agentKey)}) s, (
      select count(*)::int as total, ${sql.join([...counterItems(), ...bands])},
        count(*) filter (where m.online and m.temp_max >= ${sql.lit(TEMP_EDGES[TEMP_EDGES.length - 1]!)})::int as ${sql.ref(`t${TEMP_EDGES.length}`)},
        count(*) filter (where m.online and m.temp_max is null)::int as temp_unknown,
        max(m.temp_max) filter (where m.online) as temp_max, avg(m.temp_max) filter (where m.online) as temp_avg
      from miners m where ${minerWhere(agentKey, {}, offShelf)}
    ) c, (${offlineReasonCounts('offline')}) o
  `.execute(db);
  const r: Record<string, number | null> = rows[0] ?? {};
  const offlineZones = JSON.parse(rows[0]?.offline_zones ?? '[]') as DashboardCounters['offlineZones'];
  const n = (k: string) => r[k] ?? 0;
  const counts = countersOf(n);
  const buckets: TempBucket[] = [];
  for (let i = 0; i <= TEMP_EDGES.length; i += 1) {
    buckets.push({ from: i === 0 ? 0 : TEMP_EDGES[i - 1]!, to: i < TEMP_EDGES.length ? TEMP_EDGES[i]! : null, count: n(`t${i}`) });
  }
  const value: MinersNow = {
    counters: { total: n('total'), ...counts, topFaults: topFaultsOf(counts.faults), offlineReasons: offlineReasonsOf(n), offlineZones },
    temperature: { max: r1(r.temp_max), avg: r1(r.temp_avg), online: n('online'), unknown: n('temp_unknown'), buckets },
  };
  return { value, stamps: stampsOf(rows[0]) };
}

/**
 * `tzOffsetMin`: minutes east of UTC of the viewer, so "today" starts at the viewer's midnight
 * (0 = UTC; 480 = the 08:00 UTC day cut-off of spec 3 §9).
 */
async function panels(db: DB, agentKey: string, tzOffsetMin: number): Promise<DashboardPeriodPanel[]> {
  const offset = sql`make_interval(mins => ${tzOffsetMin}::int)`;
  const { rows } = await sql<{
    period: DashboardPeriod;
    from_at: Date | string;
    samples: number;
    real_sum: number | null;
    ideal_sum: number | null;
    total_sum: number | null;
    online_sum: number | null;
    qualified_sum: number | null;
    temp_max: number | null;
    temp_avg_sum: number | null;
    temp_avg_n: number | null;
  }>`
    with p(period, from_at, ord) as (
      values ('today', date_trunc('day', now() + ${offset}, 'UTC') - ${offset}, 1),
             ('3d', now() - interval '3 days', 2),
             ('1w', now() - interval '7 days', 3)
    ),
    h as (select * from farm_stats_hour where agent_key = ${agentKey} and at >= date_trunc('hour', now() - interval '7 days', 'UTC') and at <= now())
    select p.period, p.from_at, coalesce(sum(h.samples), 0)::int as samples,
      sum(h.real_sum) as real_sum, sum(h.ideal_sum) as ideal_sum,
      sum(h.total_sum)::float8 as total_sum, sum(h.online_sum)::float8 as online_sum, sum(h.qualified_sum)::float8 as qualified_sum,
      max(h.temp_max) as temp_max, sum(h.temp_avg_sum) as temp_avg_sum, sum(h.temp_avg_n)::int as temp_avg_n
    from p left join h on h.at >= date_trunc('hour', p.from_at, 'UTC')
    group by p.period, p.from_at, p.ord order by p.ord
  `.execute(db);
  return rows.map((r) => {
    const n = r.samples;
    const avg = (v: number | null) => (n > 0 && v !== null ? v / n : null);
    return {
      period: r.period,
      from: iso(r.from_at),
      samples: n,
      realGhs: r2(avg(r.real_sum)),
      idealGhs: r2(avg(r.ideal_sum)),
      efficiency: r.ideal_sum && r.ideal_sum > 0 ? r2(((r.real_sum ?? 0) * 100) / r.ideal_sum) : null,
      onlineRate: r.total_sum && r.total_sum > 0 ? r2(((r.online_sum ?? 0) * 100) / r.total_sum) : null,
      qualifiedRate: r.online_sum && r.online_sum > 0 ? r2(((r.qualified_sum ?? 0) * 100) / r.online_sum) : null,
      tempMax: r1(r.temp_max),
      tempAvg: r.temp_avg_n ? r1((r.temp_avg_sum ?? 0) / r.temp_avg_n) : null,
    };
  });
}

export async function getDashboardSummary(db: DB, agentKey: string, tzOffsetMin = 0): Promise<DashboardSummary> {
  const [now, p] = await Promise.all([minersNow(db, agentKey), panels(db, agentKey, tzOffsetMin)]);
  return { counters: now.counters, panels: p, temperature: now.temperature };
}

type SeriesRow = { at: Date | string; samples: number; real: number; ideal: number; total: number; online: number; qualified: number; temp_max: number | null; temp_avg: number | null };

export async function getDashboardSeries(db: DB, agentKey: string, range: DashboardSeriesRange): Promise<FarmSeriesPoint[]> {
  let rows: SeriesRow[];
  if (range === 'hour') {
    ({ rows } = await sql<SeriesRow>`
      select f.at, 1 as samples, f.real_ghs as real, f.ideal_ghs as ideal, f.total::float8 as total, f.online::float8 as online,
        f.qualified::float8 as qualified, f.temp_max, f.temp_avg
      from farm_stats_minute f where f.agent_key = ${agentKey} and f.at >= date_trunc('minute', now(), 'UTC') - interval '59 minutes' order by f.at
    `.execute(db));
  } else {
    const unit = sql.lit(range === '30d' ? 'hour' : 'day');
    const window = sql.lit(range === '30d' ? '30 days' : '365 days');
    ({ rows } = await sql<SeriesRow>`
      select date_trunc(${unit}, h.at, 'UTC') as at, sum(h.samples)::int as samples,
        sum(h.real_sum) / sum(h.samples) as real, sum(h.ideal_sum) / sum(h.samples) as ideal,
        sum(h.total_sum)::float8 / sum(h.samples) as total, sum(h.online_sum)::float8 / sum(h.samples) as online,
        sum(h.qualified_sum)::float8 / sum(h.samples) as qualified, max(h.temp_max) as temp_max,
        sum(h.temp_avg_sum) / nullif(sum(h.temp_avg_n), 0) as temp_avg
      from farm_stats_hour h where h.agent_key = ${agentKey} and h.at >= date_trunc(${unit}, now() - ${window}::interval, 'UTC') and h.samples > 0
      group by 1 order by 1
    `.execute(db));
  }
  return rows.map((r) => ({
    at: iso(r.at),
    realGhs: Math.round(r.real * 100) / 100,
    idealGhs: Math.round(r.ideal * 100) / 100,
    total: Math.round(r.total),
    online: Math.round(r.online),
    qualified: Math.round(r.qualified),
    tempMax: r.temp_max,
    tempAvg: r1(r.temp_avg),
  }));
}
