/**
 * Miner monitoring read side (spec 3 §2 "Miner monitoring", §3 Miner, §7 miner queries): query schemas and
 * answer shapes of /api/miner/* and the miner dropdowns. Hashrates GH/s, temperatures °C, times ISO 8601 UTC.
 */
import { z } from 'zod';
import { MINER_FILTER_STATUSES, MINER_NETWORKS, type MinerNetwork, type MinerStatus } from '../miner-labels';
import { FaultLabel, type MinerErrorCode, type MinerSnapshot, type MinerStateFlags, type PoolStatus, WorkMode } from './miner-snapshot';

/** Empty query values ("status=") mean "no filter". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());
const text = (max: number) => optional(z.string().trim().max(max));

/** Columns the list can be sorted by (a whitelist: each maps to one SQL expression on the server). */
export const MINER_SORT_KEYS = [
  'ip',
  'sn',
  'mac',
  'make',
  'model',
  'family',
  'firmwareVersion',
  'compileTime',
  'network',
  'workMode',
  'gHS5s',
  'gHS30m',
  'gHSav',
  'rateIdeal',
  'hashRatePercent',
  'rate1Hour',
  'rate24Hour',
  'tempChipMin',
  'tempChipMax',
  'tempChipsDiff',
  'tempPcbMin',
  'tempPcbMax',
  'tempPicMin',
  'tempPicMax',
  'fanMin',
  'fanMax',
  'chainNum',
  'chipNum',
  'totalAcnNum',
  'hwErrors',
  'frequency',
  'rejectedRate',
  'powerW',
  'errorCode',
  'faultReason',
  'pool1Url',
  'pool1User',
  'pool2Url',
  'pool2User',
  'pool3Url',
  'pool3User',
  'poolStatus',
  'elapsed',
  'missedPolls',
  'takenAt',
  'firstSeenAt',
] as const;
export type MinerSortKey = (typeof MINER_SORT_KEYS)[number];

/**
 * `firmware`: a compile date (YYYYMMDD or YYYY-MM-DD, UTC) or a firmware version string, as the
 * firmwareVersion dropdown gives it.
 */
const firmwareParam = optional(
  z
    .string()
    .trim()
    .max(100)
    .transform((v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v.replace(/-/g, '') : v)),
);

/** The filter of the miner list; /api/miner/stat takes the same parameters. */
export const MinerFilterQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  /** A state of spec 3 §4, or one of the counts over time (qualified8h, offline24h: MINER_FILTER_STATUSES). */
  status: optional(z.enum(MINER_FILTER_STATUSES)),
  faultType: optional(FaultLabel),
  model: text(100),
  firmware: firmwareParam,
  /** Part of a pool URL (any of the three pools), case-insensitive. */
  pool: text(200),
  workMode: optional(WorkMode),
  network: optional(z.enum(MINER_NETWORKS)),
  /** IP prefix ("10.0.3.") or part of the serial number. */
  keyword: text(100),
  /** Customer (id from /api/options/customer, or a name) as recorded on the miner (batchCustomer / a phone). */
  customer: text(100),
  /** Sub-area id (/api/options/area): the area and its descendants, through their IP segments. */
  subArea: text(100),
  /** Accident mark (a type of /api/options/accidentList, or older free text as written) as recorded on the miner. */
  accident: text(100),
  /** Accepted for the shelves issue; narrows nothing until miners are placed on shelves. */
  shelf: text(100),
  /** An error code the miner reports now (as /api/options/errorCode gives it: the firmware's code, or the agent's own, negative). */
  errorCode: optional(z.string().trim().regex(/^-?\d{1,9}$/, 'validation.errorCode')),
  /** Hottest chip at least this many °C (the probe wall counts its hot miners with it). */
  tempChipFrom: optional(z.coerce.number().min(-50).max(200)),
});
export type MinerFilterQuery = z.infer<typeof MinerFilterQuery>;
export type MinerFilter = Omit<MinerFilterQuery, 'agentKey'>;

export const MinerListQuery = MinerFilterQuery.extend({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  sort: optional(z.enum(MINER_SORT_KEYS)),
  order: optional(z.enum(['asc', 'desc'])),
});
export type MinerListQuery = z.infer<typeof MinerListQuery>;

export const MinerKeyQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  ip: z.string().trim().min(1, 'validation.required').max(64),
});

export const MINER_HISTORY_RANGES = ['hour', 'day', 'month'] as const;
export type MinerHistoryRange = (typeof MINER_HISTORY_RANGES)[number];
export const MinerHistoryQuery = MinerKeyQuery.extend({ range: z.enum(MINER_HISTORY_RANGES).default('hour') });

export const FARM_SERIES_RANGES = ['hour', '30d', '1y'] as const;
export type FarmSeriesRange = (typeof FARM_SERIES_RANGES)[number];
export const FarmSeriesQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  range: z.enum(FARM_SERIES_RANGES).default('hour'),
});

/** Names of the miner dropdowns served under /api/options/<name>. */
export const MINER_OPTION_NAMES = ['status', 'faultType', 'model', 'firmwareVersion', 'poolUrl', 'workMode', 'network', 'errorCode'] as const;
export type MinerOptionName = (typeof MINER_OPTION_NAMES)[number];

/** One miner as the list shows it (spec 3 §3 Miner, the fields a snapshot can give). */
export interface MinerRow {
  id: string;
  ip: string;
  sn: string;
  mac: string;
  make: string;
  /** Model ("type" in the spec). */
  model: string;
  family: string;
  firmwareVersion: string;
  /** Firmware build time (ISO), null when the firmware does not tell. */
  compileTime: string | null;
  online: boolean;
  network: MinerNetwork;
  missedPolls: number;
  state: MinerStateFlags;
  /** States that hold (online/offline first), for badges and filters. */
  statuses: MinerStatus[];
  /** Fault labels ("faultReason"). */
  faultLabels: z.infer<typeof FaultLabel>[];
  gHS5s: number;
  gHS30m: number;
  gHSav: number;
  rateIdeal: number;
  rateUnit: 'GH/s';
  /** Real (5 s) over ideal, percent; null without an ideal hashrate. */
  hashRatePercent: number | null;
  /** Average real hashrate over the last hour / 24 hours (hourly history), null without samples. */
  rate1Hour: number | null;
  rate24Hour: number | null;
  tempChipMin: number | null;
  tempChipMax: number | null;
  tempChipsDiff: number | null;
  tempPcbMin: number | null;
  tempPcbMax: number | null;
  tempPicMin: number | null;
  tempPicMax: number | null;
  fans: number[];
  fanMin: number | null;
  fanMax: number | null;
  chainNum: number;
  chipNum: number;
  /** Chips the boards should have. */
  totalAcnNum: number;
  /** Chips per board, "108/108/64". */
  chainAcn: string;
  hwErrors: number;
  /** Average chip frequency, MHz. */
  frequency: number | null;
  /** Rejected shares over all shares of the pools, percent. */
  rejectedRate: number | null;
  powerW: number | null;
  errorCodes: MinerErrorCode[];
  /** "code: message; …" */
  errorCode: string;
  pool1Url: string;
  pool1User: string;
  pool1Status: PoolStatus | '';
  pool2Url: string;
  pool2User: string;
  pool2Status: PoolStatus | '';
  pool3Url: string;
  pool3User: string;
  pool3Status: PoolStatus | '';
  /** Status of the active pool (else the first). */
  poolStatus: PoolStatus | '';
  workMode: z.infer<typeof WorkMode>;
  /** Miner process uptime, seconds. */
  elapsed: number;
  /** When this reading was taken ("lastScanTime"). */
  takenAt: string;
  firstSeenAt: string;
  /** Customer the miner is recorded for (its name: batchCustomer, a phone's change), null when none. Not sortable. */
  customer: string | null;
  /**
   * Accident mark (batchAccident, a phone's "Mark fault"): a code of MINER_ACCIDENT_TYPES (named with
   * minerLabel(locale, 'accident', code)), or free text stored before that list, shown as written; null when none.
   */
  accident: string | null;
  /** The note given with the accident mark, null when none. */
  accidentNote: string | null;
  /**
   * Zone ("factory (zone)" in the spec): the sub-area whose IP segment holds the miner's address, as its path from the
   * top down, "Top / Row / Rack" (as /api/options/area names it); null when no segment holds it (or the IP is not IPv4).
   */
  zone: string | null;
  /** That sub-area's id (the value of /api/options/area, i.e. the list's subArea filter), null with zone. */
  zoneId: string | null;
}

export interface MinerDetail extends MinerRow {
  snapshot: MinerSnapshot;
  /** Taken off shelf (/device/miners): since when, and where its repair stands (REPAIR_STATUSES; null = awaiting). null: on shelf. */
  offShelf: { at: string | null; repairStatus: string | null } | null;
}

export interface MinerStat {
  total: number;
  online: number;
  offline: number;
  qualified: number;
  unqualified: number;
  zeroHashrate: number;
  cannotStart: number;
  illegalPool: number;
  abnormalIdeal: number;
  sleeping: number;
  lowPower: number;
  /** Miners per fault label (every label present, 0 when none). */
  faults: Record<z.infer<typeof FaultLabel>, number>;
  /** Online miners whose every hourly sample of the last 8 hours (at least one) is qualified. */
  qualified8h: number;
  /** Offline miners whose last reading is older than 24 hours. */
  offline24h: number;
}

export interface MinerIndexStat {
  total: number;
  online: number;
  qualified: number;
  /** Online / total, percent (0 without miners). */
  onlineRate: number;
  /** Qualified / online, percent (spec 3 §9 "normal over active"). */
  qualifiedRate: number;
  /** Real hashrate of the online miners now, GH/s. */
  realGhs: number;
  /** Ideal hashrate of every miner, GH/s. */
  idealGhs: number;
  tempMax: number | null;
  tempAvg: number | null;
  /** Fault kinds, most frequent first (only those present). */
  topFaults: { label: z.infer<typeof FaultLabel>; count: number }[];
  /** Latest reading of the farm, null without miners. */
  updatedAt: string | null;
}

export interface MinerModelStat {
  model: string;
  make: string;
  count: number;
  online: number;
  qualified: number;
  realGhs: number;
  idealGhs: number;
}

/** One point of a miner's history: averages of the hourly samples in the bucket. */
export interface MinerHistoryPoint {
  at: string;
  realGhs: number;
  idealGhs: number;
  tempMax: number | null;
  /** Share of samples in which the miner was online, 0–1. */
  onlineRatio: number;
  samples: number;
}

/** One point of the farm's series: averages of the per-cycle farm rows in the bucket. */
export interface FarmSeriesPoint {
  at: string;
  realGhs: number;
  idealGhs: number;
  total: number;
  online: number;
  qualified: number;
  tempMax: number | null;
  tempAvg: number | null;
}
