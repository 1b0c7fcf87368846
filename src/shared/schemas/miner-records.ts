/**
 * Miner records and the dashboard (issue 4 scope 2, 6, 7): off-shelf records, SN override, a miner's
 * operation log, history-log requests, and the dashboard's period panels and temperature distribution.
 * Hashrates GH/s, temperatures °C, times ISO 8601 UTC.
 */
import { z } from 'zod';
import type { RepairStatus } from '../miner-labels';
import { SN_LENGTH, normaliseSn } from '../sn';
import type { FaultLabel } from './miner-snapshot';

const agentKey = z.string().min(1, 'validation.agentKeyRequired').max(64);
const ip = z.string().trim().min(1, 'validation.required').max(64);
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// ---------------------------------------------------------------- dashboard

export const DASHBOARD_PERIODS = ['today', '3d', '1w'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** One panel: averages of the farm's per-cycle rows over the period (null without rows). */
export interface DashboardPeriodPanel {
  period: DashboardPeriod;
  /** Start of the period (today = midnight UTC; 3d / 1w = now minus 3 / 7 days). */
  from: string;
  /** Number of per-cycle rows averaged. */
  samples: number;
  realGhs: number | null;
  idealGhs: number | null;
  /** Real / ideal, percent. */
  efficiency: number | null;
  /** Average online / total, percent. */
  onlineRate: number | null;
  /** Average qualified / online, percent. */
  qualifiedRate: number | null;
  tempMax: number | null;
  tempAvg: number | null;
}

/** Miners whose highest temperature now falls in [from, to) °C (to null = and above). */
export interface TempBucket {
  from: number;
  to: number | null;
  count: number;
}

/** Miner counters now (no 8-hour figure: that one is /api/miner/stat, too costly for a page that polls). */
export interface DashboardCounters {
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
  /** Offline, last reading older than 24 hours. */
  offline24h: number;
  /** Miners per fault label (every label, 0 included). */
  faults: Record<FaultLabel, number>;
  /** Fault labels present, most frequent first. */
  topFaults: { label: FaultLabel; count: number }[];
  /**
   * Offline miners per reason their agent gave (OFFLINE_REASON_CODES: -110 no answer, -111 refused, -104 closed before
   * a reply, -113 unreachable), reasons given only, most frequent first. The rest of `offline` have none recorded.
   */
  offlineReasons: { code: number; count: number }[];
  /** The zones (leaf sub-areas: id, path "Top / Row / Rack") holding the most offline miners, most first, at most 3. */
  offlineZones: { id: string; path: string; count: number }[];
}

export interface DashboardSummary {
  counters: DashboardCounters;
  panels: DashboardPeriodPanel[];
  temperature: { max: number | null; avg: number | null; online: number; unknown: number; buckets: TempBucket[] };
}

export const DashboardQuery = z.object({
  agentKey,
  tzOffsetMin: z.coerce.number().int().min(-840, 'validation.invalid').max(840, 'validation.invalid').default(0),
});

/** Chart ranges (spec 3 §9): hour = per minute over the last 60 minutes, 30d = per hour, 1y = per day. */
export const DASHBOARD_SERIES_RANGES = ['hour', '30d', '1y'] as const;
export type DashboardSeriesRange = (typeof DASHBOARD_SERIES_RANGES)[number];
export const DashboardSeriesQuery = z.object({ agentKey, range: z.enum(DASHBOARD_SERIES_RANGES).default('hour') });

// ---------------------------------------------------------------- off-shelf records

export const OffShelfQuery = z.object({
  agentKey,
  keyword: z.preprocess(blankToUndefined, z.string().trim().max(64).optional()),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type OffShelfQuery = z.infer<typeof OffShelfQuery>;

export interface OffShelfRow {
  ip: string;
  sn: string;
  model: string;
  customer: string;
  /** When it was marked off shelf. */
  offShelfAt: string | null;
  /** Who marked it (user name; null when the user was deleted). */
  by: string | null;
  /** The batch operation that marked it (batchOffline / batchOfflineRecoverDHCP), when known. */
  op: string | null;
  /** False when the farm no longer has a miner at this IP. */
  present: boolean;
  online: boolean;
  /** Where its repair stands (off-shelf maintenance; awaiting until one is set). */
  repairStatus: RepairStatus;
}

export const OnShelfBody = z.object({
  agentKey,
  ips: z.array(ip).min(1, 'validation.required').max(10_000),
});
export type OnShelfBody = z.infer<typeof OnShelfBody>;

// ---------------------------------------------------------------- SN, operation log, history log

/** The SN rule: normalised (trimmed, upper case), then exactly 17 characters ("SN must be 17"). */
export const SnField = z
  .string()
  .transform(normaliseSn)
  .refine((s) => [...s].length === SN_LENGTH, 'validation.snLength');

export const UpdateSnBody = z.object({ agentKey, ip, sn: SnField });
export type UpdateSnBody = z.infer<typeof UpdateSnBody>;

export interface UpdateSnResult {
  ip: string;
  sn: string;
  /** The SN the agent last reported (kept in the snapshot). */
  reportedSn: string;
  changed: boolean;
}

export const MinerOpLogQuery = z.object({
  agentKey,
  ip,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});

export interface MinerOpLogRow {
  at: string;
  /** Batch op name (batchReboot …) or record action (updateSn, onShelf, historyLog). */
  action: string;
  kind: 'batch' | 'record';
  user: string | null;
  /** null while a batch has not reached this miner yet. */
  ok: boolean | null;
  reason: string | null;
  detail: Record<string, unknown>;
}

export const HistoryLogBody = z.object({ agentKey, ip });
export const HistoryLogStatusQuery = z.object({ agentKey, id: z.string().uuid('validation.id') });

export const HISTORY_LOG_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type HistoryLogStatus = (typeof HISTORY_LOG_STATUSES)[number];

export interface HistoryLogInfo {
  id: string;
  ip: string;
  status: HistoryLogStatus;
  createdAt: string;
  doneAt: string | null;
  /** Failure reason code (agent reason, e.g. unreachable: refused, unsupported-op). */
  reason: string | null;
  /** Where the agent read it (e.g. /cgi-bin/get_kernel_log.cgi). */
  source: string | null;
  /** Size of the log text in bytes (done only). */
  size: number | null;
  /** The log text (done only), at most HISTORY_LOG_MAX_BYTES. */
  content: string | null;
}

/** The agent keeps the last 2 MiB of a log. */
export const HISTORY_LOG_MAX_BYTES = 2 * 1024 * 1024;

/** What the agent uploads for a history-log task (POST /api/agent-uplink/history-logs/:taskId). */
export const HistoryLogUpload = z.object({
  ip,
  ok: z.boolean(),
  content: z.string().max(HISTORY_LOG_MAX_BYTES + 1024).optional(),
  source: z.string().max(200).optional(),
  reason: z.string().max(500).optional(),
});
export type HistoryLogUpload = z.infer<typeof HistoryLogUpload>;
