/**
 * SQL pieces shared by the miner read use-cases: the list filter as a WHERE clause, one expression per
 * sortable column, and the row columns computed from the denormalised columns and the latest `snapshot`
 * jsonb (alias `m` = miners). Everything is computed in the database; only a page of rows leaves it.
 */
import { type RawBuilder, sql } from 'kysely';
import type { FaultLabel, MinerErrorCode, MinerStateFlags, PoolStatus, WorkMode } from '@shared/schemas/miner-snapshot';
import type { MinerFilter, MinerRow, MinerSortKey } from '@shared/schemas/miner';
import { type MinerStatus, minerStatuses } from '@shared/miner-labels';

const STATE_FLAGS: readonly MinerStatus[] = ['qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'abnormalIdeal', 'sleeping', 'lowPower'];

/** Condition "the miner is in this state" (state flags as the agent computed them; network from `online`). */
export function statusCondition(status: MinerStatus): RawBuilder<unknown> {
  if (status === 'online') return sql`m.online`;
  if (status === 'offline') return sql`not m.online`;
  if (!STATE_FLAGS.includes(status)) throw new Error(`unknown status ${status}`);
  return sql`coalesce((m.state ->> ${sql.lit(status)})::boolean, false)`;
}

/** `%` `_` `\` are literal in a search text. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** WHERE clause of a farm's miners under a list filter. */
export function minerWhere(agentKey: string, f: MinerFilter): RawBuilder<unknown> {
  const conds: RawBuilder<unknown>[] = [sql`m.agent_key = ${agentKey}`];
  if (f.status) conds.push(statusCondition(f.status));
  if (f.network) conds.push(f.network === 'online' ? sql`m.online` : sql`not m.online`);
  if (f.faultType) conds.push(sql`m.fault_labels @> array[${f.faultType}]::text[]`);
  if (f.model) conds.push(sql`m.model = ${f.model}`);
  if (f.workMode) conds.push(sql`m.work_mode = ${f.workMode}`);
  if (f.firmware) {
    conds.push(sql`(m.firmware_version = ${f.firmware} or (m.compile_time is not null and to_char(m.compile_time at time zone 'UTC', 'YYYYMMDD') = ${f.firmware}))`);
  }
  if (f.pool) {
    conds.push(sql`exists (select 1 from jsonb_array_elements(m.snapshot -> 'pools') p where strpos(lower(p ->> 'url'), ${f.pool.toLowerCase()}) > 0)`);
  }
  if (f.keyword) {
    const k = likeEscape(f.keyword);
    conds.push(sql`(m.ip like ${`${k}%`} or m.sn ilike ${`%${k}%`})`);
  }
  return sql.join(conds, sql` and `);
}

const path = (p: string) => sql.lit(p);
const minOf = (p: string) => sql`(select min(v::float8) from jsonb_path_query(m.snapshot, ${path(p)}) v)`;
const maxOf = (p: string) => sql`(select max(v::float8) from jsonb_path_query(m.snapshot, ${path(p)}) v)`;
const sumOf = (p: string) => sql`(select coalesce(sum(v::float8), 0) from jsonb_path_query(m.snapshot, ${path(p)}) v)`;
const pool = (i: number, field: 'url' | 'user' | 'status') => sql`coalesce(m.snapshot -> 'pools' -> ${sql.lit(i)} ->> ${sql.lit(field)}, '')`;

/** IP order: numeric for IPv4 (index miners_farm_ip_inet), then text. */
export const IP_ORDER = sql`miner_ip_inet(m.ip) asc nulls last, m.ip asc`;

/** One SQL expression per sortable column (also the columns the row select computes). */
export const COLUMN_SQL: Record<MinerSortKey, RawBuilder<unknown>> = {
  ip: sql`miner_ip_inet(m.ip)`,
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
  rate1Hour: sql`(select h.real_sum / nullif(h.samples, 0) from miner_stats_hour h
                  where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '1 hour' order by h.at desc limit 1)`,
  rate24Hour: sql`(select sum(h.real_sum) / nullif(sum(h.samples), 0) from miner_stats_hour h
                   where h.miner_id = m.id and h.at >= date_trunc('hour', now()) - interval '23 hours')`,
  tempChipMin: minOf('$.boards[*].tempChip[*]'),
  tempChipMax: maxOf('$.boards[*].tempChip[*]'),
  tempChipsDiff: sql`(${maxOf('$.boards[*].tempChip[*]')} - ${minOf('$.boards[*].tempChip[*]')})`,
  tempPcbMin: minOf('$.boards[*].tempPcb[*]'),
  tempPcbMax: maxOf('$.boards[*].tempPcb[*]'),
  tempPicMin: minOf('$.boards[*].tempPic[*]'),
  tempPicMax: maxOf('$.boards[*].tempPic[*]'),
  fanMin: minOf('$.fans[*]'),
  fanMax: maxOf('$.fans[*]'),
  chainNum: sql`coalesce(jsonb_array_length(m.snapshot -> 'boards'), 0)`,
  chipNum: sumOf('$.boards[*].chips'),
  totalAcnNum: sumOf('$.boards[*].expectedChips'),
  hwErrors: sumOf('$.boards[*].hwErrors'),
  frequency: sql`(select avg(v::float8) from jsonb_path_query(m.snapshot, '$.boards[*].freqMhz') v where v::float8 > 0)`,
  rejectedRate: sql`(select case when sum((p ->> 'accepted')::float8 + (p ->> 'rejected')::float8) > 0
                       then sum((p ->> 'rejected')::float8) * 100 / sum((p ->> 'accepted')::float8 + (p ->> 'rejected')::float8) end
                     from jsonb_array_elements(m.snapshot -> 'pools') p)`,
  powerW: sql`(m.snapshot ->> 'powerW')::float8`,
  errorCode: sql`coalesce((select string_agg((e ->> 'code') || ': ' || (e ->> 'message'), '; ') from jsonb_array_elements(m.snapshot -> 'errorCodes') e), '')`,
  faultReason: sql`array_to_string(m.fault_labels, ',')`,
  pool1Url: pool(0, 'url'),
  pool1User: pool(0, 'user'),
  pool2Url: pool(1, 'url'),
  pool2User: pool(1, 'user'),
  pool3Url: pool(2, 'url'),
  pool3User: pool(2, 'user'),
  poolStatus: sql`coalesce((select p ->> 'status' from jsonb_array_elements(m.snapshot -> 'pools') with ordinality x(p, i)
                            order by coalesce((p ->> 'active')::boolean, false) desc, i limit 1), '')`,
  elapsed: sql`m.elapsed_sec`,
  missedPolls: sql`m.missed_polls`,
  takenAt: sql`m.taken_at`,
  firstSeenAt: sql`m.first_seen_at`,
};

/** ORDER BY of the list: the chosen column (nulls last), then IP order so pages are stable. */
export function minerOrder(sort: MinerSortKey | undefined, order: 'asc' | 'desc' | undefined): RawBuilder<unknown> {
  if (!sort || sort === 'ip') return order === 'desc' ? sql`miner_ip_inet(m.ip) desc nulls last, m.ip desc` : IP_ORDER;
  const dir = order === 'desc' ? sql`desc` : sql`asc`;
  return sql`${COLUMN_SQL[sort]} ${dir} nulls last, ${IP_ORDER}`;
}

/** Raw row of ROW_COLUMNS. */
export interface RawMinerRow {
  id: string;
  ip: string;
  sn: string;
  mac: string;
  make: string;
  model: string;
  family: string;
  firmware_version: string;
  compile_time: Date | string | null;
  online: boolean;
  missed_polls: number;
  rt5s: number;
  rate30m: number;
  avg: number;
  ideal: number;
  work_mode: string;
  elapsed_sec: number | string;
  fault_labels: string[];
  state: Record<string, boolean>;
  taken_at: Date | string;
  first_seen_at: Date | string;
  fans: number[] | null;
  error_codes: MinerErrorCode[] | null;
  pools: { url?: string; user?: string; status?: string }[] | null;
  hash_rate_percent: number | null;
  rate1_hour: number | null;
  rate24_hour: number | null;
  temp_chip_min: number | null;
  temp_chip_max: number | null;
  temp_pcb_min: number | null;
  temp_pcb_max: number | null;
  temp_pic_min: number | null;
  temp_pic_max: number | null;
  fan_min: number | null;
  fan_max: number | null;
  chain_num: number;
  chip_num: number;
  total_acn_num: number;
  chain_acn: string | null;
  hw_errors: number;
  frequency: number | null;
  rejected_rate: number | null;
  power_w: number | null;
  error_code: string;
  pool_status: string;
}

/** The columns of one list row (alias m). */
export const ROW_COLUMNS = sql`
  m.id, m.ip, m.sn, m.mac, m.make, m.model, m.family, m.firmware_version, m.compile_time, m.online, m.missed_polls,
  m.rt5s, m.rate30m, m.avg, m.ideal, m.work_mode, m.elapsed_sec::float8 as elapsed_sec, m.fault_labels, m.state,
  m.taken_at, m.first_seen_at,
  m.snapshot -> 'fans' as fans, m.snapshot -> 'errorCodes' as error_codes,
  (select jsonb_agg(jsonb_build_object('url', p ->> 'url', 'user', p ->> 'user', 'status', p ->> 'status')) from jsonb_array_elements(m.snapshot -> 'pools') p) as pools,
  ${COLUMN_SQL.hashRatePercent} as hash_rate_percent,
  ${COLUMN_SQL.rate1Hour} as rate1_hour,
  ${COLUMN_SQL.rate24Hour} as rate24_hour,
  ${COLUMN_SQL.tempChipMin} as temp_chip_min, ${COLUMN_SQL.tempChipMax} as temp_chip_max,
  ${COLUMN_SQL.tempPcbMin} as temp_pcb_min, ${COLUMN_SQL.tempPcbMax} as temp_pcb_max,
  ${COLUMN_SQL.tempPicMin} as temp_pic_min, ${COLUMN_SQL.tempPicMax} as temp_pic_max,
  ${COLUMN_SQL.fanMin} as fan_min, ${COLUMN_SQL.fanMax} as fan_max,
  ${COLUMN_SQL.chainNum}::int as chain_num,
  ${COLUMN_SQL.chipNum}::int as chip_num,
  ${COLUMN_SQL.totalAcnNum}::int as total_acn_num,
  (select string_agg(b ->> 'chips', '/' order by (b ->> 'index')::int) from jsonb_array_elements(m.snapshot -> 'boards') b) as chain_acn,
  ${COLUMN_SQL.hwErrors}::float8 as hw_errors,
  ${COLUMN_SQL.frequency} as frequency,
  ${COLUMN_SQL.rejectedRate} as rejected_rate,
  ${COLUMN_SQL.powerW} as power_w,
  ${COLUMN_SQL.errorCode} as error_code,
  ${COLUMN_SQL.poolStatus} as pool_status
`;

export function iso(v: Date | string | null): string | null {
  if (v === null) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

const round = (v: number | null, digits = 2): number | null => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);
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

export function toMinerRow(r: RawMinerRow): MinerRow {
  const pools = r.pools ?? [];
  const p = (i: number) => pools[i];
  const state = stateFlags(r.state ?? {}, r.online);
  const tempChipMin = round(r.temp_chip_min);
  const tempChipMax = round(r.temp_chip_max);
  return {
    id: r.id,
    ip: r.ip,
    sn: r.sn,
    mac: r.mac,
    make: r.make,
    model: r.model,
    family: r.family,
    firmwareVersion: r.firmware_version,
    compileTime: iso(r.compile_time),
    online: r.online,
    network: r.online ? 'online' : 'offline',
    missedPolls: r.missed_polls,
    state,
    statuses: minerStatuses(r.online, state as unknown as Record<string, boolean>),
    faultLabels: r.fault_labels as FaultLabel[],
    gHS5s: r.rt5s,
    gHS30m: r.rate30m,
    gHSav: r.avg,
    rateIdeal: r.ideal,
    rateUnit: 'GH/s',
    hashRatePercent: round(r.hash_rate_percent),
    rate1Hour: round(r.rate1_hour),
    rate24Hour: round(r.rate24_hour),
    tempChipMin,
    tempChipMax,
    tempChipsDiff: tempChipMin === null || tempChipMax === null ? null : round(tempChipMax - tempChipMin),
    tempPcbMin: round(r.temp_pcb_min),
    tempPcbMax: round(r.temp_pcb_max),
    tempPicMin: round(r.temp_pic_min),
    tempPicMax: round(r.temp_pic_max),
    fans: r.fans ?? [],
    fanMin: r.fan_min,
    fanMax: r.fan_max,
    chainNum: r.chain_num,
    chipNum: r.chip_num,
    totalAcnNum: r.total_acn_num,
    chainAcn: r.chain_acn ?? '',
    hwErrors: r.hw_errors,
    frequency: round(r.frequency, 1),
    rejectedRate: round(r.rejected_rate, 3),
    powerW: r.power_w,
    errorCodes: r.error_codes ?? [],
    errorCode: r.error_code,
    pool1Url: p(0)?.url ?? '',
    pool1User: p(0)?.user ?? '',
    pool1Status: poolStatus(p(0)?.status),
    pool2Url: p(1)?.url ?? '',
    pool2User: p(1)?.user ?? '',
    pool2Status: poolStatus(p(1)?.status),
    pool3Url: p(2)?.url ?? '',
    pool3User: p(2)?.user ?? '',
    pool3Status: poolStatus(p(2)?.status),
    poolStatus: poolStatus(r.pool_status),
    workMode: r.work_mode as WorkMode,
    elapsed: Number(r.elapsed_sec),
    takenAt: iso(r.taken_at) ?? '',
    firstSeenAt: iso(r.first_seen_at) ?? '',
  };
}
