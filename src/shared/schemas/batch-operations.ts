/**
 * Miner batch operations (spec 3 §4, §5, §7): POST /api/minerv2/<op>. Every op names its farm (agentKey)
 * and exactly one target: `ips` (comma-joined), `filter` (JSON of the miner-list filters: every matching
 * miner) or `ipListFileId` (an uploaded IP list, kept one hour). Bodies may be form-encoded (strings).
 */
import { z } from 'zod';
import { MINER_ACCIDENT_TYPES } from '../miner-labels';
import { isIPv4 } from '../validation';
import { MinerFilterQuery } from './miner';
import { WorkMode } from './miner-snapshot';
import { boolish } from './common';

/** At most this many miners per batch (and rows per uploaded list). */
export const BATCH_MAX_TARGETS = 10_000;
/** Hashrate adjust percent bounds (spec 3 §5); the server clamps into them. */
export const HASHRATE_PERCENT_MIN = 65;
export const HASHRATE_PERCENT_MAX = 100;
/** Verification code: digits, lifetime, attempts, resend pause. */
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_CODE_TTL_SEC = 600;
export const VERIFICATION_CODE_MAX_ATTEMPTS = 5;
export const VERIFICATION_CODE_RESEND_SEC = 60;
/** An uploaded IP list can be used as a target for this long. */
export const IP_LIST_TTL_SEC = 3600;

/** The 17 operations under /api/minerv2/ (spec 3 §7). */
export const BATCH_OPS = [
  'batchBlink',
  'batchChangeWorkMode',
  'batchUpgrade',
  'batchCustomer',
  'batchDelete',
  'batchOffline',
  'batchOfflineRecoverDHCP',
  'batchReboot',
  'batchRecoverDHCP',
  'batchReset',
  'batchSetPool',
  'batchAdjustHashRate',
  'batchSetFrequency',
  'batchChangePowerPercent',
  'batchSetFans',
  'batchAccident',
  'setAgentPower',
] as const;
export type BatchOp = (typeof BATCH_OPS)[number];
/** Ops that target miners (all but setAgentPower, which sets the farm's power limit). */
export type MinerBatchOp = Exclude<BatchOp, 'setAgentPower'>;

/** Sensitive operations: the body must carry a verification code sent by POST /api/minerv2/sendCode. */
export const SENSITIVE_BATCH_OPS = ['batchReset', 'batchSetPool', 'batchUpgrade', 'batchDelete', 'batchOfflineRecoverDHCP'] as const satisfies readonly BatchOp[];
export function isSensitiveBatchOp(op: BatchOp): boolean {
  return (SENSITIVE_BATCH_OPS as readonly BatchOp[]).includes(op);
}

/** Ops answering { success, failed } (capability stage) instead of { taskId, queued, refused }. */
export const LIST_ANSWER_OPS = ['batchAdjustHashRate', 'batchSetFrequency', 'batchChangePowerPercent'] as const satisfies readonly BatchOp[];
/** Ops that only change server records (no miner is contacted). */
export const RECORD_ONLY_OPS = ['batchCustomer', 'batchOffline', 'batchAccident', 'setAgentPower'] as const satisfies readonly BatchOp[];

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const num = (schema: z.ZodNumber) => z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);

/** Comma / newline separated IPv4 list. */
const IpList = z
  .union([z.string().max(200_000), z.array(z.string())])
  .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(/[\s,;]+/)).map((s) => s.trim()).filter((s) => s !== ''))])
  .pipe(
    z
      .array(z.string().refine(isIPv4, 'validation.ipAddress'))
      .min(1, 'validation.batchTargetRequired')
      .max(BATCH_MAX_TARGETS, 'validation.batchTargetsMax'),
  );

const FilterOnly = MinerFilterQuery.omit({ agentKey: true });
export type BatchFilter = z.infer<typeof FilterOnly>;
/** The list filters as a JSON string (or an object in a JSON body). */
export const FilterJson = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}, FilterOnly);

const targetShape = {
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  ips: z.preprocess(blank, IpList.optional()),
  filter: z.preprocess(blank, FilterJson.optional()),
  ipListFileId: z.preprocess(blank, z.string().uuid('validation.id').optional()),
  /** Verification code (sensitive ops). */
  code: z.preprocess(blank, z.string().trim().max(20).optional()),
};

function exactlyOneTarget(b: { ips?: unknown; filter?: unknown; ipListFileId?: unknown }, ctx: z.RefinementCtx): void {
  const n = [b.ips, b.filter, b.ipListFileId].filter((v) => v !== undefined).length;
  if (n !== 1) ctx.addIssue({ code: 'custom', path: ['ips'], message: n === 0 ? 'validation.batchTargetRequired' : 'validation.batchTargetOne' });
}

function batchBody<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...targetShape, ...shape }).superRefine(exactlyOneTarget);
}

/** Pool URL: scheme://host[:port][/path], no "gov" / "dhs" (spec 3 §5). */
export function isValidPoolUrl(url: string): boolean {
  if (/gov|dhs/i.test(url)) return false;
  return /^(stratum\+tcp|stratum\+ssl|stratum2\+tcp|stratum\+tls|tcp|ssl|http|https):\/\/[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\d{1,5})?(\/\S*)?$/i.test(url.trim());
}
const PoolUrl = z.string().trim().max(300).refine(isValidPoolUrl, 'validation.poolUrl');
const PoolUser = z.string().trim().max(200);
const PoolPassword = z.preprocess(blank, z.string().max(200).optional());

const poolShape = {
  pool1Url: PoolUrl,
  pool1User: PoolUser.min(1, 'validation.poolUser'),
  pool1Password: PoolPassword,
  pool2Url: z.preprocess(blank, PoolUrl.optional()),
  pool2User: z.preprocess(blank, PoolUser.optional()),
  pool2Password: PoolPassword,
  pool3Url: z.preprocess(blank, PoolUrl.optional()),
  pool3User: z.preprocess(blank, PoolUser.optional()),
  pool3Password: PoolPassword,
  workerSuffix: z.preprocess(blank, z.enum(['ip', 'sn', 'none']).default('none')),
};

const clampPercent = (v: number) => Math.min(HASHRATE_PERCENT_MAX, Math.max(HASHRATE_PERCENT_MIN, v));

/** Body schema of each op. */
export const BATCH_BODIES = {
  batchBlink: batchBody({ on: boolish }),
  batchChangeWorkMode: batchBody({ mode: WorkMode }),
  batchUpgrade: batchBody({
    fileUrl: z.string().trim().min(1, 'validation.required').max(2000).refine((u) => /^https?:\/\/\S+$/i.test(u) || /^\/\S+$/.test(u), 'validation.fileUrl'),
    fileName: z.preprocess(blank, z.string().trim().max(200).optional()),
    keepSettings: z.preprocess(blank, boolish.default(true)),
  }),
  /** A customer of the farm by name, or `clear` (no customer: a hosted miner back to the farm's own). */
  batchCustomer: batchBody({
    customer: z.preprocess(blank, z.string().trim().max(100, 'validation.remarkMax').optional()),
    clear: z.preprocess(blank, boolish.default(false)),
  }).superRefine((b, ctx) => {
    if (!b.clear && !b.customer) ctx.addIssue({ code: 'custom', path: ['customer'], message: 'validation.required' });
    if (b.clear && b.customer) ctx.addIssue({ code: 'custom', path: ['customer'], message: 'validation.invalid' });
  }),
  batchDelete: batchBody({}),
  batchOffline: batchBody({}),
  batchOfflineRecoverDHCP: batchBody({}),
  batchReboot: batchBody({}),
  batchRecoverDHCP: batchBody({}),
  batchReset: batchBody({}),
  batchSetPool: z
    .object({ ...targetShape, ...poolShape })
    .superRefine(exactlyOneTarget)
    .superRefine((b, ctx) => {
      for (const i of [2, 3] as const) {
        const url = b[`pool${i}Url`];
        const user = b[`pool${i}User`];
        if (url && !user) ctx.addIssue({ code: 'custom', path: [`pool${i}User`], message: 'validation.poolUser' });
        if (!url && user) ctx.addIssue({ code: 'custom', path: [`pool${i}Url`], message: 'validation.poolUrl' });
      }
    }),
  batchAdjustHashRate: batchBody({ percent: num(z.number().finite()).transform(clampPercent) }),
  batchSetFrequency: batchBody({ freqMhz: num(z.number().int('validation.frequency').min(1, 'validation.frequency').max(2000, 'validation.frequency')) }),
  batchChangePowerPercent: batchBody({ percent: num(z.number().int('validation.powerPercent').min(1, 'validation.powerPercent').max(100, 'validation.powerPercent')) }),
  batchSetFans: batchBody({
    mode: z.enum(['auto', 'manual']),
    percent: z.preprocess(blank, num(z.number().int('validation.fanPercent').min(0, 'validation.fanPercent').max(100, 'validation.fanPercent')).optional()),
  }).superRefine((b, ctx) => {
    if (b.mode === 'manual' && b.percent === undefined) ctx.addIssue({ code: 'custom', path: ['percent'], message: 'validation.fanPercent' });
  }),
  batchAccident: batchBody({
    /** A type of GET /api/options/accidentList (MINER_ACCIDENT_TYPES). */
    accident: z.preprocess(blank, z.enum(MINER_ACCIDENT_TYPES, { message: 'validation.accidentType' })),
    note: z.preprocess(blank, z.string().trim().max(500, 'validation.remarkMax').default('')),
  }),
  setAgentPower: z.object({
    agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
    /** Farm power limit in kW; 0 removes the limit. */
    powerLimitKw: num(z.number().finite().min(0, 'validation.powerLimit').max(1_000_000, 'validation.powerLimit')),
  }),
} as const satisfies Record<BatchOp, z.ZodType>;
export type BatchBody<Op extends BatchOp> = z.infer<(typeof BATCH_BODIES)[Op]>;

/** POST /api/minerv2/sendCode. */
export const SEND_CODE_CHANNELS = ['email', 'sms'] as const;
export type SendCodeChannel = (typeof SEND_CODE_CHANNELS)[number];
export const SendCodeBody = z.object({ channel: z.enum(SEND_CODE_CHANNELS) });
export interface SendCodeResult {
  channel: SendCodeChannel;
  /** Masked address the code went to ("a***@example.com", "+1 ***4567"). */
  sentTo: string;
  expiresInSec: number;
  resendAfterSec: number;
}

/** One refused / failed miner; reason is a capability reason code (miner-capabilities.ts), 'not-found' or an agent reason. */
export interface BatchFailure {
  ip: string;
  reason: string;
}
/** Answer of the queued ops. taskId null when nothing could be queued. */
export interface BatchQueuedResult {
  taskId: string;
  queued: number;
  refused: BatchFailure[];
}
/** Answer of batchAdjustHashRate / batchSetFrequency / batchChangePowerPercent (capability stage). */
export interface BatchListResult {
  taskId: string;
  success: string[];
  failed: BatchFailure[];
}
export interface SetAgentPowerResult {
  taskId: string;
  powerLimitKw: number;
}

export type BatchStatus = 'pending' | 'running' | 'done';

/** GET /api/log/batchList row. */
export interface BatchLogRow {
  taskId: string;
  op: string;
  user: string | null;
  createdAt: string;
  doneAt: string | null;
  total: number;
  done: number;
  ok: number;
  failed: number;
  status: BatchStatus;
}

/** GET /api/minerv2/batchProgress. */
export interface BatchProgress {
  taskId: string;
  op: string;
  status: BatchStatus;
  total: number;
  done: number;
  successes: string[];
  failures: BatchFailure[];
  createdAt: string;
  doneAt: string | null;
}

export const BatchProgressQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  taskId: z.string().uuid('validation.id'),
});
export const BatchListQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});

/** POST /api/minerv2/uploadIpList answer. */
export interface IpListUploadResult {
  fileId: string;
  /** Distinct valid IPs in the file. */
  count: number;
  /** How many of them are miners of the farm. */
  matched: number;
  unmatched: string[];
  /** Lines that are not an IP (1-based line / row numbers), at most 100 listed. */
  invalid: { line: number; value: string }[];
  expiresAt: string;
}
