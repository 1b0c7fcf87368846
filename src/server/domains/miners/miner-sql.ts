/**
 * SQL pieces shared by the miner read use-cases: the list filter as a WHERE clause, one expression per
 * sortable column, and the row columns computed from the denormalised columns and the rest of the latest reading in
 * `snapshot` (json, stored-reading.ts; alias `m` = miners). Everything is computed in the database; only a page of
 * rows leaves it.
 */
import { type RawBuilder, sql } from 'kysely';
import { type FaultLabel, type MinerErrorCode, type MinerSnapshot, type MinerStateFlags, OFFLINE_REASON_CODES, type PoolStatus, type WorkMode } from '@shared/schemas/miner-snapshot';
import type { MinerFilter, MinerRow, MinerSortKey } from '@shared/schemas/miner';
import { MINER_FAULT_LABELS, type MinerFilterStatus, type MinerStatus, minerStatuses } from '@shared/miner-labels';
import { subAreaMinerFilter } from '../sub-areas/sub-areas.repository';

type StateFlag = Exclude<MinerStatus, 'online' | 'offline'>;
/**
 * The bit of each state flag in miners.state_bits and of each fault label in miners.fault_bits (generated from
 * `state` and `fault_labels` by the database: migration 202611230400, whose bits these must stay).
 */
export const STATE_BITS: Readonly<Record<StateFlag, number>> = {
  qualified: 1, unqualified: 2, zeroHashrate: 4, cannotStart: 8, illegalPool: 16, abnormalIdeal: 32, sleeping: 64, lowPower: 128,
};
/** The state flags in the order a row's "state" writes them (after "online"). */
const STATE_FLAGS = Object.keys(STATE_BITS) as StateFlag[];
export const FAULT_BITS: Readonly<Record<FaultLabel, number>> = {
  'high-temperature': 1, 'missing-chip': 2, 'fan-speed-abnormal': 4, 'missing-hashboard': 8, 'hashboard-failure': 16, 'empty-sn': 32, 'duplicate-sn': 64,
};

/** An hourly bucket (its sums) qualifies: online in every sample, average real ≥ 80 % of average ideal (ideal > 0). */
export function bucketQualified(samples: RawBuilder<unknown>, online: RawBuilder<unknown>, real: RawBuilder<unknown>, ideal: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(${online} = ${samples} and ${ideal} > 0 and ${real} >= 0.8 * ${ideal})`;
}

/** The miner (alias m) is 8-hour qualified: its latest bucket is in the last 8 hours and qualifies, no earlier one there failed. */
const QUALIFIED_8H = sql`(m.online and m.stat_hour_at >= date_trunc('hour', now()) - interval '7 hours'
  and ${bucketQualified(sql`m.stat_hour_samples`, sql`m.stat_hour_online`, sql`m.stat_hour_real_sum`, sql`m.stat_hour_ideal_sum`)}
  and (m.stat_unqualified_hour_at is null or m.stat_unqualified_hour_at < date_trunc('hour', now()) - interval '7 hours'))`;
/** The miner (alias m) is offline over 24 hours: offline, its last reading more than a day old. */
const OFFLINE_24H = sql`(not m.online and m.taken_at < now() - interval '24 hours')`;

/** The filter states whose answer moves on with the clock (an hour, a day), not only with the farm's data. */
export const CLOCK_STATUSES: ReadonlySet<MinerFilterStatus> = new Set<MinerFilterStatus>(['qualified8h', 'offline24h']);

/**
 * Condition "the miner is in this state" (state flags as the agent computed them, read from their bits; network
 * from `online`): columns of the index miners_farm_counts, so a count of a farm's miners reads the index only.
 * 8-hour qualified reads the row's hourly bucket, offline over 24 hours the time of its last reading.
 */
export function statusCondition(status: MinerFilterStatus): RawBuilder<unknown> {
  if (status === 'online') return sql`m.online`;
  if (status === 'offline') return sql`not m.online`;
  if (status === 'qualified8h') return QUALIFIED_8H;
  if (status === 'offline24h') return OFFLINE_24H;
  const bit = (STATE_BITS as Record<string, number>)[status];
  if (bit === undefined) throw new Error(`unknown status ${status}`);
  return sql`(m.state_bits & ${sql.lit(bit)}) <> 0`;
}

/** Condition "the miner carries this fault label" (its bit: see statusCondition). */
export function faultCondition(label: FaultLabel): RawBuilder<unknown> {
  return sql`(m.fault_bits & ${sql.lit(FAULT_BITS[label])}) <> 0`;
}

/** Select items counting the miners per fault label: `f0`, `f1` … in the order of MINER_FAULT_LABELS. */
export const faultCounts = (): RawBuilder<unknown>[] =>
  MINER_FAULT_LABELS.map((f, i) => sql`count(*) filter (where ${faultCondition(f)})::int as ${sql.ref(`f${i}`)}`);

/** The statuses the farm's counters show (the miner list's and the dashboard's). */
const COUNTED_STATUSES = ['online', 'offline', 'qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower'] as const;

/**
 * Select items of the farm's counters, the same for the miner list and the dashboard: a count per status (named
 * after it), per fault label (faultCounts) and `offline24h` (offline, its last reading more than a day old).
 */
export const counterItems = (): RawBuilder<unknown>[] => [
  ...COUNTED_STATUSES.map((s) => sql`count(*) filter (where ${statusCondition(s)})::int as ${sql.ref(s)}`),
  ...faultCounts(),
  sql`count(*) filter (where ${OFFLINE_24H})::int as offline24h`,
];

/** The counters read back from a row of counterItems (`n`: a column's number, 0 when missing). */
export function countersOf(n: (column: string) => number): Record<(typeof COUNTED_STATUSES)[number] | 'offline24h', number> & { faults: Record<FaultLabel, number> } {
  const counts = Object.fromEntries(COUNTED_STATUSES.map((s) => [s, n(s)])) as Record<(typeof COUNTED_STATUSES)[number], number>;
  return { ...counts, offline24h: n('offline24h'), faults: faultsOf(n) };
}

/** The counts of faultCounts read back, per label. */
export function faultsOf(n: (column: string) => number): Record<FaultLabel, number> {
  return Object.fromEntries(MINER_FAULT_LABELS.map((f, i) => [f, n(`f${i}`)])) as Record<FaultLabel, number>;
}

/** The faults present, most frequent first (ties by label). */
export function topFaultsOf(faults: Record<FaultLabel, number>): { label: FaultLabel; count: number }[] {
  return MINER_FAULT_LABELS.map((label) => ({ label, count: faults[label] }))
    .filter((f) => f.count > 0)
    .sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : 1));
}

/**
 * The offline miners among `where`'s (alias m), one row each, as a WITH query of the statement that counts them
 * (`with offline as materialized (…)`: one pass for the reasons and the zones): `code`, its agent's reason (the first
 * of the reading's error codes, src/agent/offline-reason.ts; parsed only when the figures hold a code), and
 * `zone_id`, the leaf sub-area holding its address (one index step; none looked up when the farm has no IP segments).
 */
export function offlineMinersSql(agentKey: string, where: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select case when ${MAY_HAVE_ERROR_CODES} then ${errorCodesSql()} -> 0 ->> 'code' end as code,
      case when exists (select 1 from sub_area_segments s where s.agent_key = ${agentKey}) then ${ZONE_ID} end as zone_id
    from miners m where ${where} and not m.online`;
}

/**
 * A select of one row counting the rows of `offline` (offlineMinersSql) per reason their agent gave for its failed
 * polls (OFFLINE_REASON_CODES): `r110`, `r111` … (Counted in the counters' own scan, the four counts parsed each
 * reading four times and read every miner's row: +35 ms for 2,000 offline miners among 20,000 on PGlite.)
 */
export function offlineReasonCounts(offline: string): RawBuilder<unknown> {
  const counts = OFFLINE_REASON_CODES.map((code) => sql`count(*) filter (where o.code = ${sql.lit(String(code))})::int as ${sql.ref(`r${-code}`)}`);
  return sql`select ${sql.join(counts)} from ${sql.table(offline)} o`;
}

/** How many zones offlineZonesSql names at most. */
export const OFFLINE_ZONES_SHOWN = 3;

/**
 * A select of one value: the zones holding the most rows of `offline` (offlineMinersSql) as JSON text
 * `[{ id, path, count }]`, most first (ties by id), at most OFFLINE_ZONES_SHOWN. Only the zones shown are named (their
 * path: naming every offline miner's zone took ~100 ms for 2,000 of them in 80 zones on PGlite). A row of racks without
 * power shows as one zone.
 */
export function offlineZonesSql(offline: string): RawBuilder<unknown> {
  return sql`select coalesce(json_agg(json_build_object('id', z.id::text, 'path', ${ZONE_PATH}, 'count', z.n) order by z.n desc, z.id), '[]')::text
    from (
      select o.zone_id as id, count(*)::int as n from ${sql.table(offline)} o where o.zone_id is not null
      group by 1 order by n desc, 1 limit ${sql.lit(OFFLINE_ZONES_SHOWN)}
    ) z
    join sub_areas a1 on a1.id = z.id
    ${AREA_PARENTS}`;
}

/** The counts of offlineReasonCounts read back: the reasons given, most frequent first (ties in OFFLINE_REASON_CODES order). */
export function offlineReasonsOf(n: (column: string) => number): { code: number; count: number }[] {
  return OFFLINE_REASON_CODES.map((code) => ({ code, count: n(`r${-code}`) }))
    .filter((r) => r.count > 0)
    .sort((a, b) => b.count - a.count);
}

/** `%` `_` `\` are literal in a search text. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** WHERE clause of a farm's miners under a list filter. */
export function minerWhere(agentKey: string, f: MinerFilter, offShelf = false): RawBuilder<unknown> {
  const conds: RawBuilder<unknown>[] = [sql`m.agent_key = ${agentKey}`];
  // On-shelf miners only (spec 3 §2: /device/miner; the ones taken off shelf are /device/miners' records), when the
  // farm has any off shelf (miner-stamps.ts hasOffShelf). A shelf mark change moves both stamps (migration
  // 202611230440), so kept counts and lists follow it.
  if (offShelf) conds.push(sql`not exists (select 1 from miner_marks os where os.agent_key = m.agent_key and os.ip = m.ip and os.off_shelf)`);
  if (f.status) conds.push(statusCondition(f.status));
  if (f.network) conds.push(f.network === 'online' ? sql`m.online` : sql`not m.online`);
  // `<> '{}'` (implied by the containment) lets the planner use the partial index miners_farm_faulty_ip.
  if (f.faultType) conds.push(sql`m.fault_labels <> '{}' and m.fault_labels @> array[${f.faultType}]::text[]`);
  if (f.model) conds.push(sql`m.model = ${f.model}`);
  if (f.workMode) conds.push(sql`m.work_mode = ${f.workMode}`);
  if (f.firmware) {
    conds.push(sql`(m.firmware_version = ${f.firmware} or (m.compile_time is not null and to_char(m.compile_time at time zone 'UTC', 'YYYYMMDD') = ${f.firmware}))`);
  }
  if (f.pool) {
    conds.push(sql`exists (select 1 from json_array_elements(m.snapshot -> 'pools') p where strpos(lower(p ->> 'url'), ${f.pool.toLowerCase()}) > 0)`);
  }
  if (f.customer) {
    // The dropdown (/api/options/customer) gives the customer's id; marks keep the customer's name. A name works too.
    conds.push(sql`exists (select 1 from miner_marks mk where mk.agent_key = m.agent_key and mk.ip = m.ip and mk.customer = coalesce(
      (select c.name from customers c where c.agent_key = m.agent_key and c.id::text = ${f.customer}), ${f.customer}))`);
  }
  if (f.accident) conds.push(sql`exists (select 1 from miner_marks mk where mk.agent_key = m.agent_key and mk.ip = m.ip and mk.accident = ${f.accident})`);
  if (f.subArea) {
    // The sub-area (id from /api/options/area) and everything under it, through the IP segments of its leaves.
    conds.push(/^\d{1,9}$/.test(f.subArea) ? subAreaMinerFilter(Number(f.subArea), 'm') : sql`false`);
  }
  if (f.errorCode !== undefined) conds.push(sql`${MAY_HAVE_ERROR_CODES} and exists (select 1 from json_array_elements(${errorCodesSql()}) e where e ->> 'code' = ${f.errorCode})`);
  if (f.tempChipFrom !== undefined) conds.push(sql`m.sync_temp_chip_max >= ${f.tempChipFrom}`);
  if (f.keyword) {
    const k = likeEscape(f.keyword);
    conds.push(sql`(m.ip like ${`${k}%`} or m.sn ilike ${`%${k}%`})`);
  }
  return sql.join(conds, sql` and `);
}

const path = (p: string) => sql.lit(p);
const minOf = (p: string) => sql`(select min(v::float8) from jsonb_path_query(m.snapshot::jsonb, ${path(p)}) v)`;
const maxOf = (p: string) => sql`(select max(v::float8) from jsonb_path_query(m.snapshot::jsonb, ${path(p)}) v)`;
const sumOf = (p: string) => sql`(select coalesce(sum(v::float8), 0) from jsonb_path_query(m.snapshot::jsonb, ${path(p)}) v)`;
/** The row's current bucket (an earlier hour when this one has no reading yet) lies in the last 24 hourly buckets. */
const BUCKET_IN_DAY = sql`m.stat_hour_at >= date_trunc('hour', now()) - interval '23 hours'`;
const pool = (i: number, field: 'url' | 'user' | 'status') => sql`coalesce(m.snapshot -> 'pools' -> ${sql.lit(i)} ->> ${sql.lit(field)}, '')`;

/** IP order: numeric for IPv4 (ip_inet = miner_ip_inet(ip), migration 202611230420; index miners_farm_ip_order), then text. */
export const IP_ORDER = sql`m.ip_inet asc nulls last, m.ip asc`;

/** One SQL expression per sortable column (also the columns the row select computes). */
export const COLUMN_SQL: Record<MinerSortKey, RawBuilder<unknown>> = {
  ip: sql`m.ip_inet`,
  sn: sql`m.sn`,
  mac: sql`m.mac`,
  make: sql`m.make`,
  model: sql`m.model`,
  family: sql`m.family`,
  firmwareVersion: sql`m.firmware_version`,
  compileTime: sql`m.compile_time`,
  network: sql`m.online`,
  workMode: sql`m.work_mode`,
  gHS5s: sql`m.rt5s`,
  gHS30m: sql`m.rate30m`,
  gHSav: sql`m.avg`,
  rateIdeal: sql`m.ideal`,
  hashRatePercent: sql`(case when m.ideal > 0 then m.rt5s * 100 / m.ideal end)`,
  // The miner's current hourly bucket, kept on its row by the ingest (STAT_HOUR_UPSERT): the latest hourly row, if in the last 2 hours.
  rate1Hour: sql`(case when m.stat_hour_at >= date_trunc('hour', now()) - interval '1 hour' and m.stat_hour_samples > 0
                  then m.stat_hour_real_sum / m.stat_hour_samples end)`,
  // The 23 whole hours before the current bucket, kept on the row by the ingest (STAT_HOUR_UPSERT, migration
  // 202611230340), plus the current bucket; the history and the bucket (an earlier hour's, not in the history yet:
  // migration 202611230410) when the miner has no reading this hour yet.
  rate24Hour: sql`(case when m.stat_hour_at = date_trunc('hour', now()) and m.stat_day_sums is not null
                   then (m.stat_day_sums[1] + m.stat_hour_real_sum) / nullif(m.stat_day_sums[2] + m.stat_hour_samples, 0)
                   else (select (coalesce(sum(h.real_sum), 0) + case when ${BUCKET_IN_DAY} then m.stat_hour_real_sum else 0 end)
                                / nullif(coalesce(sum(h.samples), 0) + case when ${BUCKET_IN_DAY} then m.stat_hour_samples else 0 end, 0)
                         from miner_stats_hour h where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '23 hours') end)`,
  tempChipMin: minOf('$.boards[*].tempChip[*]'),
  // Stored by the ingest (miners.sync_*, migration 202611230130): a plain column to sort on, no jsonpath walk per row.
  tempChipMax: sql`m.sync_temp_chip_max`,
  tempChipsDiff: sql`(m.sync_temp_chip_max - ${minOf('$.boards[*].tempChip[*]')})`,
  tempPcbMin: minOf('$.boards[*].tempPcb[*]'),
  tempPcbMax: sql`m.sync_temp_pcb_max`,
  tempPicMin: minOf('$.boards[*].tempPic[*]'),
  tempPicMax: maxOf('$.boards[*].tempPic[*]'),
  fanMin: sql`m.sync_fan_min`,
  fanMax: sql`m.sync_fan_max`,
  chainNum: sql`coalesce(json_array_length(m.snapshot -> 'boards'), 0)`,
  chipNum: sumOf('$.boards[*].chips'),
  totalAcnNum: sumOf('$.boards[*].expectedChips'),
  hwErrors: sumOf('$.boards[*].hwErrors'),
  frequency: sql`(select avg(v::float8) from jsonb_path_query(m.snapshot::jsonb, '$.boards[*].freqMhz') v where v::float8 > 0)`,
  rejectedRate: sql`(select case when sum((p ->> 'accepted')::float8 + (p ->> 'rejected')::float8) > 0
                       then sum((p ->> 'rejected')::float8) * 100 / sum((p ->> 'accepted')::float8 + (p ->> 'rejected')::float8) end
                     from json_array_elements(m.snapshot -> 'pools') p)`,
  powerW: sql`(m.snapshot ->> 'powerW')::float8`,
  errorCode: sql`coalesce((select string_agg((e ->> 'code') || ': ' || (e ->> 'message'), '; ') from json_array_elements(m.snapshot -> 'errorCodes') e), '')`,
  faultReason: sql`array_to_string(m.fault_labels, ',')`,
  pool1Url: pool(0, 'url'),
  pool1User: pool(0, 'user'),
  pool2Url: pool(1, 'url'),
  pool2User: pool(1, 'user'),
  pool3Url: pool(2, 'url'),
  pool3User: pool(2, 'user'),
  poolStatus: sql`coalesce((select p ->> 'status' from json_array_elements(m.snapshot -> 'pools') with ordinality x(p, i)
                            order by coalesce((p ->> 'active')::boolean, false) desc, i limit 1), '')`,
  elapsed: sql`m.elapsed_sec`,
  missedPolls: sql`m.missed_polls`,
  takenAt: sql`m.taken_at`,
  firstSeenAt: sql`m.first_seen_at`,
};

/**
 * Sort keys that are NOT NULL columns: "nulls last" changes nothing for them, and leaving it out lets a descending
 * sort walk an index in either direction (e.g. gHS5s on miners_farm_rt5s_order) instead of sorting every row.
 */
const NOT_NULL_SORTS: ReadonlySet<MinerSortKey> = new Set<MinerSortKey>([
  'sn', 'mac', 'make', 'model', 'family', 'firmwareVersion', 'network', 'workMode', 'gHS5s', 'gHS30m', 'gHSav', 'rateIdeal',
  'faultReason', 'elapsed', 'missedPolls', 'takenAt', 'firstSeenAt',
]);

/** ORDER BY of the list: the chosen column (nulls last), then IP order so pages are stable. */
export function minerOrder(sort: MinerSortKey | undefined, order: 'asc' | 'desc' | undefined): RawBuilder<unknown> {
  if (!sort || sort === 'ip') return order === 'desc' ? sql`m.ip_inet desc nulls last, m.ip desc` : IP_ORDER;
  const dir = order === 'desc' ? sql`desc` : sql`asc`;
  return NOT_NULL_SORTS.has(sort) ? sql`${COLUMN_SQL[sort]} ${dir}, ${IP_ORDER}` : sql`${COLUMN_SQL[sort]} ${dir} nulls last, ${IP_ORDER}`;
}

/** A timestamp as milliseconds since 1970 (a number: turning the text of a timestamp into a Date cost more than the rest of a row). */
const epochMs = (t: RawBuilder<unknown>) => sql`date_part('epoch', ${t}) * 1000`;

/** The plain columns of a list row, in the order ROW_COLUMNS puts them in its JSON array `r` (see RowTuple). */
const PLAIN = sql`m.id, m.ip, m.sn, m.mac, m.make, m.model, m.family, m.firmware_version, ${epochMs(sql`m.compile_time`)}, m.online, m.missed_polls,
  m.rt5s, m.rate30m, m.avg, m.ideal, m.work_mode, m.elapsed_sec::float8, m.fault_labels, m.state, ${epochMs(sql`m.taken_at`)}, ${epochMs(sql`m.first_seen_at`)}`;

type RowTuple = [
  id: string, ip: string, sn: string, mac: string, make: string, model: string, family: string, firmwareVersion: string,
  compileTimeMs: number | null, online: boolean, missedPolls: number, rt5s: number, rate30m: number, avg: number, ideal: number,
  workMode: string, elapsedSec: number, faultLabels: string[], state: Record<string, boolean> | null, takenAtMs: number, firstSeenAtMs: number,
  hashRatePercent: number | null, rate1Hour: number | null, rate24Hour: number | null,
];

/** Raw row of ROW_COLUMNS. */
export interface RawMinerRow {
  /** The plain columns and the hourly figures as one JSON array (RowTuple). */
  r: string;
  /** The list's figures of the latest reading as the ingest stored them (listFiguresText, JSON); null for rows it has not written since. */
  list_figures: string | null;
  /** The latest reading, read only when list_figures is null (the figures are then computed from it). */
  snapshot: Partial<MinerSnapshot> | null;
  /** The miner's marks as a JSON array text (MarksTuple: customer, accident, accident note); null without a miner_marks row. */
  marks: string | null;
  /** The sub-area holding the miner's IP as a JSON array text (ZoneTuple: area id as text, its path); null when no segment holds it. */
  zone: string | null;
}

/** miner_marks' customer, accident (a MINER_ACCIDENT_TYPES code or older free text) and accident note, '' read as null. */
type MarksTuple = [customer: string | null, accident: string | null, accidentNote: string | null];
/** The leaf sub-area whose IP segment holds the miner: its id (as text) and its path "Top / Row / Rack". */
type ZoneTuple = [areaId: string, path: string];

/** The miner's marks (MarksTuple) from its miner_marks row (primary key agent_key, ip): a row's customer, accident and note. */
const MARKS_SQL = sql`(select json_build_array(nullif(k.customer, ''), nullif(k.accident, ''), nullif(k.accident_note, ''))::text
    from miner_marks k where k.agent_key = m.agent_key and k.ip = m.ip)`;

/** The miner's IPv4 address as a number (null for an address that is not IPv4: ip_inet is null). */
const IP_NUMBER = sql`(m.ip_inet - '0.0.0.0'::inet)`;
/**
 * The miner's zone (ZoneTuple): the leaf sub-area whose IP segment holds its address, and the area's path from the top
 * down, named as /api/options/area names it (sub-areas.repository.ts: names joined with " / "; at most 5 levels, so
 * four parents). A farm's segments never overlap, so the one that can hold the address is the last one starting at
 * or below it: one step backwards through the index sub_area_segments_farm (agent_key, begin_num, end_num), not a
 * scan of the farm's segments.
 */
const SEGMENT_OF_IP = sql`(select s.area_id, s.end_num from sub_area_segments s
          where s.agent_key = m.agent_key and s.begin_num <= ${IP_NUMBER}
          order by s.begin_num desc limit 1) seg`;
/** The area a1 and its parents a2 … a5 (joined on `a1.id = …` by the caller). */
const AREA_PARENTS = sql`left join sub_areas a2 on a2.id = a1.parent_id
    left join sub_areas a3 on a3.id = a2.parent_id
    left join sub_areas a4 on a4.id = a3.parent_id
    left join sub_areas a5 on a5.id = a4.parent_id`;
const zoneOf = (value: RawBuilder<unknown>) => sql`(select ${value}
    from ${SEGMENT_OF_IP}
    join sub_areas a1 on a1.id = seg.area_id
    ${AREA_PARENTS}
    where seg.end_num >= ${IP_NUMBER})`;
/** The id of the miner's zone alone (alias m): the leaf sub-area holding its address, null when none does. */
const ZONE_ID = sql`(select seg.area_id from ${SEGMENT_OF_IP} where seg.end_num >= ${IP_NUMBER})`;
const ZONE_PATH = sql`concat_ws(' / ', a5.name, a4.name, a3.name, a2.name, a1.name)`;
const ZONE_SQL = zoneOf(sql`json_build_array(a1.id::text, ${ZONE_PATH})::text`);
/** The path of the miner's zone alone (alias m), null when no segment holds its address: the phone's sync rows (miner-sync-rows.ts). */
export const ZONE_PATH_SQL = zoneOf(ZONE_PATH);

/**
 * The columns of one list row (alias m): plain columns, the figures of the latest reading and the hourly-history
 * figures (tests/bench/miner-list.bench.ts measures them):
 * - the plain columns and the hourly figures come as one JSON array text: on PGlite, handing over 24 typed columns
 *   per row (dates, arrays, jsonb each parsed on their own) cost twice as much as building and parsing one text;
 * - the reading's figures (temperatures, fans, chips, pools …: listFigures) are stored by the ingest beside the
 *   reading (miners.list_figures, a ~0.35 kB JSON array: listFiguresText), so a page reads them instead of the reading: shipping
 *   and parsing 50 snapshots was half the database time of a page on PostgreSQL. A row written otherwise (older
 *   rows, tests writing SQL) has no figures: its snapshot is read and they are computed here, with the same
 *   definitions as COLUMN_SQL.
 * - the miner's marks (customer, accident) and zone (sub-area) come from their tables, one small JSON array text
 *   each (MARKS_SQL, ZONE_SQL: an index lookup per row of the page), null when the miner has none.
 */
export const ROW_COLUMNS = sql`
  json_build_array(${PLAIN}, ${COLUMN_SQL.hashRatePercent}, ${COLUMN_SQL.rate1Hour}, ${COLUMN_SQL.rate24Hour})::text as r,
  m.list_figures, case when m.list_figures is null then m.snapshot end as snapshot,
  ${MARKS_SQL} as marks,
  ${ZONE_SQL} as zone
`;

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (o: unknown, k: string): unknown => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined);

/** Lowest and highest number of the lists (nulls when none), as min(v::float8) / max(v::float8) over a jsonpath. Plain loops: the ingest runs this for every miner of every upload. */
function extremes(lists: readonly unknown[]): [number | null, number | null] {
  let lo: number | null = null;
  let hi: number | null = null;
  for (const l of lists) {
    if (!Array.isArray(l)) continue;
    for (const v of l) {
      if (!num(v)) continue;
      if (lo === null || v < lo) lo = v;
      if (hi === null || v > hi) hi = v;
    }
  }
  return [lo, hi];
}

/** The lists under `key` of each board. */
const boardLists = (boards: unknown[], key: string): unknown[] => boards.map((b) => field(b, key));

/** Sum of the numbers under `key` of each item. */
function sumOfField(items: unknown[], key: string): number {
  let s = 0;
  for (const o of items) {
    const v = field(o, key);
    if (num(v)) s += v;
  }
  return s;
}

/** The snapshot-derived figures of a list row: the definitions of COLUMN_SQL, evaluated on one snapshot. */
export type SnapshotFigures = ReturnType<typeof snapshotFigures>;
export function snapshotFigures(snap: Partial<MinerSnapshot> | null) {
  const boards = list(snap?.boards);
  const pools = list(snap?.pools);
  const fans = list(snap?.fans);
  let freqSum = 0;
  let freqN = 0;
  for (const b of boards) {
    const v = field(b, 'freqMhz');
    if (num(v) && v > 0) {
      freqSum += v;
      freqN++;
    }
  }
  const [tempChipMin, tempChipMax] = extremes(boardLists(boards, 'tempChip'));
  const [tempPcbMin, tempPcbMax] = extremes(boardLists(boards, 'tempPcb'));
  const [tempPicMin, tempPicMax] = extremes(boardLists(boards, 'tempPic'));
  const [fanMin, fanMax] = extremes([fans]);
  let rejected = 0;
  let total = 0;
  for (const p of pools) {
    const a = field(p, 'accepted');
    const r = field(p, 'rejected');
    if (num(a) && num(r)) total += a + r;
    if (num(r)) rejected += r;
  }
  const active = pools.find((p) => field(p, 'active') === true) ?? pools[0];
  const sortedBoards = [...boards].sort((a, b) => Number(field(a, 'index')) - Number(field(b, 'index')));
  const errors = list(snap?.errorCodes);
  const power = snap?.powerW;
  const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? null : String(v));
  return {
    fans: fans as number[],
    errorCodes: errors as MinerErrorCode[],
    pools: pools.map((p) => ({ url: text(field(p, 'url')) ?? undefined, user: text(field(p, 'user')) ?? undefined, status: text(field(p, 'status')) ?? undefined })),
    tempChipMin,
    tempChipMax,
    tempPcbMin,
    tempPcbMax,
    tempPicMin,
    tempPicMax,
    fanMin,
    fanMax,
    chainNum: boards.length,
    chipNum: Math.round(sumOfField(boards, 'chips')),
    totalAcnNum: Math.round(sumOfField(boards, 'expectedChips')),
    chainAcn: sortedBoards.map((b) => text(field(b, 'chips'))).filter((c): c is string => c !== null).join('/'),
    hwErrors: sumOfField(boards, 'hwErrors'),
    frequency: freqN ? freqSum / freqN : null,
    rejectedRate: total > 0 ? (rejected * 100) / total : null,
    powerW: num(power) ? power : null,
    // string_agg skips an entry whose code or message is missing (the concatenation is null)
    errorCode: errors
      .map((e) => [text(field(e, 'code')), text(field(e, 'message'))])
      .filter(([c, m]) => c !== null && m !== null)
      .map(([c, m]) => `${c}: ${m}`)
      .join('; '),
    poolStatus: text(field(active, 'status')) ?? '',
  };
}

/** The list row's fields that come from the reading (rounded as the list shows them): what miners.list_figures stores. */
export type ListFigures = Pick<
  MinerRow,
  | 'tempChipMin' | 'tempChipMax' | 'tempChipsDiff' | 'tempPcbMin' | 'tempPcbMax' | 'tempPicMin' | 'tempPicMax' | 'fans' | 'fanMin' | 'fanMax'
  | 'chainNum' | 'chipNum' | 'totalAcnNum' | 'chainAcn' | 'hwErrors' | 'frequency' | 'rejectedRate' | 'powerW' | 'errorCodes' | 'errorCode'
  | 'pool1Url' | 'pool1User' | 'pool1Status' | 'pool2Url' | 'pool2User' | 'pool2Status' | 'pool3Url' | 'pool3User' | 'pool3Status' | 'poolStatus'
>;

/** The reading's list figures (stored by the ingest as JSON in miners.list_figures, or computed from the snapshot). */
export function listFigures(snap: Partial<MinerSnapshot> | null, f: SnapshotFigures = snapshotFigures(snap)): ListFigures {
  const p = (i: number) => f.pools[i];
  const tempChipMin = round(f.tempChipMin);
  const tempChipMax = round(f.tempChipMax);
  return {
    tempChipMin,
    tempChipMax,
    tempChipsDiff: tempChipMin === null || tempChipMax === null ? null : round(tempChipMax - tempChipMin),
    tempPcbMin: round(f.tempPcbMin),
    tempPcbMax: round(f.tempPcbMax),
    tempPicMin: round(f.tempPicMin),
    tempPicMax: round(f.tempPicMax),
    fans: f.fans,
    fanMin: f.fanMin,
    fanMax: f.fanMax,
    chainNum: f.chainNum,
    chipNum: f.chipNum,
    totalAcnNum: f.totalAcnNum,
    chainAcn: f.chainAcn,
    hwErrors: f.hwErrors,
    frequency: round(f.frequency, 1),
    rejectedRate: round(f.rejectedRate, 3),
    powerW: f.powerW,
    errorCodes: f.errorCodes,
    errorCode: f.errorCode,
    pool1Url: p(0)?.url ?? '',
    pool1User: p(0)?.user ?? '',
    pool1Status: poolStatus(p(0)?.status),
    pool2Url: p(1)?.url ?? '',
    pool2User: p(1)?.user ?? '',
    pool2Status: poolStatus(p(1)?.status),
    pool3Url: p(2)?.url ?? '',
    pool3User: p(2)?.user ?? '',
    pool3Status: poolStatus(p(2)?.status),
    poolStatus: poolStatus(f.poolStatus),
  };
}

/** The order in which miners.list_figures keeps the figures: a JSON array, half the bytes of an object with its keys. */
const LIST_FIGURE_KEYS = [
  'tempChipMin', 'tempChipMax', 'tempChipsDiff', 'tempPcbMin', 'tempPcbMax', 'tempPicMin', 'tempPicMax', 'fans', 'fanMin', 'fanMax',
  'chainNum', 'chipNum', 'totalAcnNum', 'chainAcn', 'hwErrors', 'frequency', 'rejectedRate', 'powerW', 'errorCodes', 'errorCode',
  'pool1Url', 'pool1User', 'pool1Status', 'pool2Url', 'pool2User', 'pool2Status', 'pool3Url', 'pool3User', 'pool3Status', 'poolStatus',
] as const satisfies readonly (keyof ListFigures)[];

/** The element of miners.list_figures (a JSON array in LIST_FIGURE_KEYS order) holding a figure, as SQL (json, or null for rows without list figures). */
export function listFigureSql(key: (typeof LIST_FIGURE_KEYS)[number]): RawBuilder<unknown> {
  return sql`(m.list_figures::json -> ${sql.lit(LIST_FIGURE_KEYS.indexOf(key))})`;
}

/**
 * The miner's reading may carry error codes: its list figures hold an object with a code, or there are none (read
 * from the snapshot then). A text search is much cheaper than parsing the JSON, and most miners report no code.
 */
export const MAY_HAVE_ERROR_CODES = sql`(m.list_figures is null or strpos(m.list_figures, '"code":') > 0)`;

/** The error codes of the miner's reading ([{ code, message }]): from its list figures (a few hundred bytes), else its snapshot. */
export function errorCodesSql(): RawBuilder<unknown> {
  return sql`coalesce(${listFigureSql('errorCodes')}, m.snapshot -> 'errorCodes')`;
}

/** What the ingest stores in miners.list_figures for a reading: its list figures as a JSON array in LIST_FIGURE_KEYS order (`figures`: its snapshotFigures, when already made). */
export function listFiguresText(snap: Partial<MinerSnapshot> | null, figures?: SnapshotFigures): string {
  const f = listFigures(snap, figures);
  return JSON.stringify(LIST_FIGURE_KEYS.map((k) => f[k]));
}

/** miners.list_figures read back (an array in LIST_FIGURE_KEYS order; rows stored before as an object with keys read as they are). */
export function parseListFigures(text: string): ListFigures {
  const v = JSON.parse(text) as unknown;
  if (!Array.isArray(v)) return v as ListFigures;
  const o: Record<string, unknown> = {};
  for (let i = 0; i < LIST_FIGURE_KEYS.length; i++) o[LIST_FIGURE_KEYS[i]!] = v[i];
  return o as ListFigures;
}

export function iso(v: Date | string | null): string | null {
  if (v === null) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

export const round = (v: number | null, digits = 2): number | null => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);
const poolStatus = (v: string | undefined): PoolStatus | '' => (v === 'alive' || v === 'dead' || v === 'unknown' ? v : '');

function stateFlags(s: Record<string, boolean>, online: boolean): MinerStateFlags {
  const b = (k: string) => s[k] === true;
  return {
    online,
    qualified: b('qualified'),
    unqualified: b('unqualified'),
    zeroHashrate: b('zeroHashrate'),
    cannotStart: b('cannotStart'),
    illegalPool: b('illegalPool'),
    abnormalIdeal: b('abnormalIdeal'),
    sleeping: b('sleeping'),
    lowPower: b('lowPower'),
  };
}

export function toMinerRow(raw: RawMinerRow): MinerRow {
  const figures = raw.list_figures !== null && raw.list_figures !== undefined ? parseListFigures(raw.list_figures) : listFigures(raw.snapshot);
  const [id, ip, sn, mac, make, model, family, firmwareVersion, compileTimeMs, online, missedPolls, rt5s, rate30m, avg, ideal, workMode, elapsedSec,
    faultLabels, stateJson, takenAtMs, firstSeenAtMs, hashRatePercent, rate1Hour, rate24Hour] = JSON.parse(raw.r) as RowTuple;
  const state = stateFlags(stateJson ?? {}, online);
  const [customer, accident, accidentNote] = raw.marks == null ? NO_MARKS : (JSON.parse(raw.marks) as MarksTuple);
  const [zoneId, zone] = raw.zone == null ? NO_ZONE : (JSON.parse(raw.zone) as ZoneTuple);
  return {
    id,
    ip,
    sn,
    mac,
    make,
    model,
    family,
    firmwareVersion,
    compileTime: isoOfMsFast(compileTimeMs),
    online,
    network: online ? 'online' : 'offline',
    missedPolls,
    state,
    statuses: minerStatuses(online, state as unknown as Record<string, boolean>),
    faultLabels: faultLabels as FaultLabel[],
    gHS5s: rt5s,
    gHS30m: rate30m,
    gHSav: avg,
    rateIdeal: ideal,
    rateUnit: 'GH/s',
    hashRatePercent: round(hashRatePercent),
    rate1Hour: round(rate1Hour),
    rate24Hour: round(rate24Hour),
    ...figures,
    workMode: workMode as WorkMode,
    elapsed: Number(elapsedSec),
    takenAt: isoOfMsFast(takenAtMs) ?? '',
    firstSeenAt: isoOfMsFast(firstSeenAtMs) ?? '',
    customer,
    accident,
    accidentNote,
    zone,
    zoneId,
  };
}

const NO_MARKS: MarksTuple = [null, null, null];
const NO_ZONE: [null, null] = [null, null];

const q = JSON.stringify;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
/** Day (since 1970) → its text ("2026-03-10T"), for the days isoOfMsFast met last (a row has up to three timestamps of different days). */
const isoDays = new Map<number, string>();
/** Epoch milliseconds as Date.toISOString writes them (rounded to the millisecond), without a Date per call (a Date and its toISOString cost ~0.8 µs, three per list row). */
export function isoOfMsFast(ms: number | null): string | null {
  if (ms === null) return null;
  const t = Math.round(ms);
  const day = Math.floor(t / 86_400_000);
  let dayText = isoDays.get(day);
  if (dayText === undefined) {
    const text = new Date(day * 86_400_000).toISOString();
    if (!text.endsWith('T00:00:00.000Z')) return new Date(t).toISOString(); // out of a Date's range: its own error
    if (isoDays.size >= 64) isoDays.clear();
    isoDays.set(day, (dayText = text.slice(0, -13)));
  }
  let r = t - day * 86_400_000;
  const h = Math.floor(r / 3_600_000);
  r -= h * 3_600_000;
  const m = Math.floor(r / 60_000);
  r -= m * 60_000;
  const sec = Math.floor(r / 1000);
  return `${dayText}${pad(h, 2)}:${pad(m, 2)}:${pad(sec, 2)}.${pad(r - sec * 1000, 3)}Z`;
}

/**
 * Where the elements of a JSON array text are: `ends[i]` is the index of the comma (or closing bracket) after
 * element i, which starts after `ends[i - 1]` (after the opening bracket for the first). The text is JSON the
 * database or JSON.stringify wrote (valid): only strings and nesting need care. Returns the number of elements
 * (exported for its test).
 */
export function arrayBounds(text: string, ends: number[]): number {
  let n = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // To the closing quote: the next quote not escaped (preceded by an even number of backslashes); indexOf skips
      // the string's characters natively (ids, IPs, SNs, pool URLs: most of a row's text).
      for (;;) {
        const j = text.indexOf('"', i + 1);
        if (j < 0) return n;
        let b = j - 1;
        while (text.charCodeAt(b) === 92 /* \ */) b--;
        i = j;
        if ((j - 1 - b) % 2 === 0) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) depth++;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      if (--depth === 0) {
        if (n > 0 || text.slice(1, i).trim() !== '') ends[n++] = i; // the last element ([] has none)
        return n;
      }
    } else if (c === 44 /* , */ && depth === 1) ends[n++] = i;
  }
  return n;
}

/** `,"key":` of each list figure, in LIST_FIGURE_KEYS order. */
const FIGURE_KEYS_JSON = LIST_FIGURE_KEYS.map((k) => `,${q(k)}:`);
/** Keys of the row tuple's elements that go out as they are (RowTuple order; the others are converted). */
const RAW_KEYS: Record<number, string> = {
  0: '{"id":', 1: ',"ip":', 2: ',"sn":', 3: ',"mac":', 4: ',"make":', 5: ',"model":', 6: ',"family":', 7: ',"firmwareVersion":',
};
const ends: number[] = [];
const figureEnds: number[] = [];
const markEnds: number[] = [];
const zoneEnds: number[] = [];
const NO_MARKS_JSON = ',"customer":null,"accident":null,"accidentNote":null';
const NO_ZONE_JSON = ',"zone":null,"zoneId":null';
/**
 * `"state":{…},"statuses":[…]` of a row, per (online, stored state's text): a farm's rows share a few dozen state
 * combinations, so each is parsed and written once (at most STATE_TEXTS_MAX kept) instead of once per row.
 */
const stateTexts = { online: new Map<string, string>(), offline: new Map<string, string>() };
const STATE_TEXTS_MAX = 512;
function stateJson(online: boolean, stored: string): string {
  const kept = online ? stateTexts.online : stateTexts.offline;
  let text = kept.get(stored);
  if (text === undefined) {
    const state = stateFlags((JSON.parse(stored) as Record<string, boolean> | null) ?? {}, online);
    let flags = `"online":${online}`;
    for (const k of STATE_FLAGS) flags += `,"${k}":${state[k as keyof MinerStateFlags]}`;
    text = `"state":{${flags}},"statuses":${q(minerStatuses(online, state as unknown as Record<string, boolean>))}`;
    if (kept.size >= STATE_TEXTS_MAX) kept.clear();
    kept.set(stored, text);
  }
  return text;
}
/** Element i of the array text whose bounds arrayBounds put in `at`. */
const element = (text: string, at: number[], i: number): string => text.slice(i === 0 ? 1 : at[i - 1]! + 1, at[i]);
/** Element i as a number (null for JSON null). */
function numberAt(text: string, at: number[], i: number): number | null {
  const t = element(text, at, i).trim();
  return t === 'null' ? null : Number(t);
}

/**
 * A list row as JSON text, with the values of toMinerRow(raw) (the same keys in the same order). The list page is
 * the console's hottest read (20 consoles × 50 rows): building each row as an object of 55 keys and serialising
 * it again cost ~19 µs per row, a third of the server's CPU per page (tests/bench/miner-list.bench.ts). Here the
 * elements of the row's two JSON arrays (the database's `r`, the stored list figures) are copied as text between
 * their keys (the marks' and the zone's too), and only the few values that change form (timestamps, state, rounded
 * figures) are parsed: ~5 µs.
 * Rows without stored array figures (written before, or by SQL) take the object path.
 */
export function minerRowJson(raw: RawMinerRow): string {
  const lf = raw.list_figures;
  if (lf === null || lf === undefined || lf.charCodeAt(0) !== 91 /* [ */) return q(toMinerRow(raw));
  const r = raw.r;
  ends.length = 0;
  if (arrayBounds(r, ends) !== 24) return q(toMinerRow(raw));
  // The marks and the zone: their elements copied as they are (JSON the database wrote), in MarksTuple / ZoneTuple order.
  const marks = raw.marks;
  let marksJson = NO_MARKS_JSON;
  if (marks != null) {
    markEnds.length = 0;
    if (arrayBounds(marks, markEnds) !== 3) return q(toMinerRow(raw));
    marksJson = `,"customer":${element(marks, markEnds, 0)},"accident":${element(marks, markEnds, 1)},"accidentNote":${element(marks, markEnds, 2)}`;
  }
  const zone = raw.zone;
  let zoneJson = NO_ZONE_JSON;
  if (zone != null) {
    zoneEnds.length = 0;
    if (arrayBounds(zone, zoneEnds) !== 2) return q(toMinerRow(raw));
    zoneJson = `,"zone":${element(zone, zoneEnds, 1)},"zoneId":${element(zone, zoneEnds, 0)}`;
  }
  let s = '';
  for (let i = 0; i < 8; i++) s += RAW_KEYS[i]! + element(r, ends, i);
  const online = element(r, ends, 9).trim() === 'true';
  s +=
    `,"compileTime":${q(isoOfMsFast(numberAt(r, ends, 8)))},"online":${online},"network":${online ? '"online"' : '"offline"'},"missedPolls":${element(r, ends, 10)}` +
    `,${stateJson(online, element(r, ends, 18))},"faultLabels":${element(r, ends, 17)}` +
    `,"gHS5s":${element(r, ends, 11)},"gHS30m":${element(r, ends, 12)},"gHSav":${element(r, ends, 13)},"rateIdeal":${element(r, ends, 14)},"rateUnit":"GH/s"` +
    `,"hashRatePercent":${q(round(numberAt(r, ends, 21)))},"rate1Hour":${q(round(numberAt(r, ends, 22)))},"rate24Hour":${q(round(numberAt(r, ends, 23)))}`;
  figureEnds.length = 0;
  const nf = arrayBounds(lf, figureEnds);
  for (let i = 0; i < FIGURE_KEYS_JSON.length && i < nf; i++) s += FIGURE_KEYS_JSON[i]! + element(lf, figureEnds, i);
  return `${s},"workMode":${element(r, ends, 15)},"elapsed":${q(numberAt(r, ends, 16) ?? 0)},"takenAt":${q(isoOfMsFast(numberAt(r, ends, 19)) ?? '')},"firstSeenAt":${q(isoOfMsFast(numberAt(r, ends, 20)) ?? '')}${marksJson}${zoneJson}}`;
}
