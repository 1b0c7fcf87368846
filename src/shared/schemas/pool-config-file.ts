/**
 * The farm's pool configuration file (spec 3 §7 GET /api/minerv2/getuploadPoolConfigFile "pool config file"):
 * download an .xlsx of each miner's current pools, edit it, upload it to check it (a plan kept one hour), then
 * apply the plan with a verification code — one batchSetPool batch per distinct pool set. Shared by the server
 * routes and the console dialog; messages are `errors:` keys.
 */
import { z } from 'zod';
import { isIPv4 } from '../validation';
import { BATCH_MAX_TARGETS, FilterJson } from './batch-operations';

/** A checked plan can be applied for this long. */
export const POOL_CONFIG_TTL_SEC = 3600;
/** The upload answer lists at most this many invalid rows. */
export const POOL_CONFIG_INVALID_LISTED = 200;
/** At most this many data rows per file (spec 3 §5 "Import at most 10,000 rows"). */
export const POOL_CONFIG_MAX_ROWS = BATCH_MAX_TARGETS;

/** Column order of the file; the header text is `poolConfigFile.columns.<key>` of errors.json. */
export const POOL_CONFIG_COLUMNS = ['ip', 'sn', 'model', 'pool1Url', 'pool1User', 'pool2Url', 'pool2User', 'pool3Url', 'pool3User'] as const;
export type PoolConfigColumn = (typeof POOL_CONFIG_COLUMNS)[number];

/** The template's sample row when the farm has no miners (spec 3 §5 "The first template row holds sample data"). */
export const POOL_CONFIG_SAMPLE_ROW: Record<PoolConfigColumn, string> = {
  ip: '192.168.1.100',
  sn: 'SAMPLE-SN-0001',
  model: 'Antminer S21',
  pool1Url: 'stratum+tcp://btc.pool.example:3333',
  pool1User: 'account.worker1',
  pool2Url: 'stratum+tcp://btc-backup.pool.example:443',
  pool2User: 'account.worker1',
  pool3Url: '',
  pool3User: '',
};

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Addresses in a download's URL at most (ips, or exclude with a filter): more would not fit a request line. */
export const POOL_CONFIG_IPS_IN_URL_MAX = 800;

/** Comma-joined IPv4 addresses of a download's query, at most `max`. */
const ipsParam = (max: number) =>
  z.preprocess(
    blank,
    z
      .string()
      .max(200_000)
      .transform((v) => [...new Set(v.split(/[\s,;]+/).map((s) => s.trim()).filter((s) => s !== ''))])
      .pipe(z.array(z.string().refine(isIPv4, 'validation.ipAddress')).max(max, 'validation.batchTargetsMax'))
      .optional(),
  );

export const PoolConfigDownloadQuery = z
  .object({
    agentKey: z.string('validation.agentKeyRequired').min(1, 'validation.agentKeyRequired').max(64),
    /** Comma-joined IPv4 addresses: only these miners (else every miner of the farm). */
    ips: ipsParam(BATCH_MAX_TARGETS),
    /** The miner list's filters as JSON: only the miners matching them (a selection of "all matching", any size). */
    filter: z.preprocess(blank, FilterJson.optional()),
    /** With filter: addresses left out of the matching miners (those unticked), comma-joined. */
    exclude: ipsParam(POOL_CONFIG_IPS_IN_URL_MAX),
  })
  .superRefine((q, ctx) => {
    if (q.ips && q.filter) ctx.addIssue({ code: 'custom', path: ['ips'], message: 'validation.batchTargetOne' });
    if (q.exclude && !q.filter) ctx.addIssue({ code: 'custom', path: ['exclude'], message: 'validation.batchTargetRequired' });
  });
export type PoolConfigDownloadQuery = z.output<typeof PoolConfigDownloadQuery>;

export const PoolConfigApplyBody = z.object({
  agentKey: z.string('validation.agentKeyRequired').min(1, 'validation.agentKeyRequired').max(64),
  fileId: z.string('validation.id').uuid('validation.id'),
  code: z.preprocess(blank, z.string().trim().max(20).optional()),
});
export type PoolConfigApplyBody = z.output<typeof PoolConfigApplyBody>;

export interface PoolConfigPool {
  url: string;
  user: string;
}

export type PoolConfigRowStatus = 'change' | 'same' | 'unknown' | 'invalid';

export interface PoolConfigInvalidRow {
  /** 1-based line of the file. */
  line: number;
  ip: string;
  /** A column of POOL_CONFIG_COLUMNS. */
  field: PoolConfigColumn;
  /** Localised message. */
  message: string;
}

export interface PoolConfigGroup {
  pools: PoolConfigPool[];
  /** Miners of the plan getting this pool set. */
  count: number;
}

export interface PoolConfigUploadResult {
  fileId: string;
  counts: Record<PoolConfigRowStatus, number>;
  /** Distinct pool sets among the `change` rows, largest first. */
  groups: PoolConfigGroup[];
  /** The first POOL_CONFIG_INVALID_LISTED invalid rows. */
  invalid: PoolConfigInvalidRow[];
  expiresAt: string;
}

export interface PoolConfigQueuedBatch {
  taskId: string;
  /** Miners queued in this batch. */
  ips: number;
  pool1Url: string;
}

export interface PoolConfigApplyResult {
  batches: PoolConfigQueuedBatch[];
  /** Miners refused by the capability check or gone from the farm. */
  refused: { ip: string; reason: string }[];
}
