import { z } from 'zod';
import { SecurityScanReport } from '../security-scan';
import { MinerSnapshot, WorkMode, isExactMinerSnapshot } from './miner-snapshot';

/**
 * Agent ↔ server contract ("uplink"). All paths are under AGENT_UPLINK_PREFIX.
 * Every request carries `Authorization: Bearer <agentKey>.<secret>`; 401 = bad key/secret.
 * Every answer is the envelope `{ code: 0, msg: "success", data }` (code > 0 on failure, with a
 * meaningful HTTP status). Times are ISO 8601 UTC strings, hashrates GH/s.
 */

/** Path prefix of every uplink endpoint. */
export const AGENT_UPLINK_PREFIX = '/api/agent-uplink';

/** Endpoint paths (relative to AGENT_UPLINK_PREFIX). `:id` is the task id. */
export const AGENT_UPLINK_PATHS = {
  /** GET → envelope<AgentConfig>. */
  config: '/config',
  /** POST gzip JSON SnapshotBatch (Content-Encoding: gzip) → envelope<SnapshotBatchResult>. */
  snapshots: '/snapshots',
  /** POST JSON Heartbeat → envelope<HeartbeatResult>. */
  heartbeat: '/heartbeat',
  /** GET → envelope<AgentTask[]> (pending tasks for this farm, oldest first). */
  tasks: '/tasks',
  /** POST JSON TaskResultReport → envelope<TaskResultAck>. */
  taskResults: '/tasks/:id/results',
  /** POST JSON HistoryLogUpload (schemas/miner-records.ts) for a history-log task → envelope<{ stored }>. */
  historyLog: '/history-logs/:id',
} as const;

/** Builds the `Authorization` header value. */
export function agentAuthorization(agentKey: string, secret: string): string {
  return `Bearer ${agentKey}.${secret}`;
}

/** Splits a `Bearer <agentKey>.<secret>` header; null when malformed (agentKey itself may not contain '.'). */
export function parseAgentAuthorization(header: string | undefined): { agentKey: string; secret: string } | null {
  if (!header) return null;
  const m = /^Bearer\s+([^.\s]+)\.(\S+)$/.exec(header.trim());
  if (!m || !m[1] || !m[2]) return null;
  return { agentKey: m[1], secret: m[2] };
}

/** Standard answer envelope. */
export function uplinkEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), msg: z.string(), data });
}

// ---------------------------------------------------------------- GET /config

/** One login the agent may try on a miner (tried in order until one works). */
export const MinerCredential = z.object({ user: z.string(), password: z.string() });
export type MinerCredential = z.infer<typeof MinerCredential>;

/** One scan range: ipBegin–ipEnd inclusive, or ipBegin as CIDR ("10.0.0.0/22") with ipEnd omitted. */
export const ScanRange = z.object({ ipBegin: z.string(), ipEnd: z.string().optional() });
export type ScanRange = z.infer<typeof ScanRange>;

/** Credentials per firmware family; missing or empty lists fall back to the factory defaults. */
export const AgentCredentials = z.object({
  /** Antminer stock web (HTTP digest), default root/root. */
  antminer: z.array(MinerCredential).default([]),
  /** Whatsminer API v2 admin password (user ignored) and v3 account (user 'super'), default admin / super. */
  whatsminer: z.array(MinerCredential).default([]),
  /** Braiins OS REST/web, default root/root. */
  braiins: z.array(MinerCredential).default([]),
  /** VNish web unlock password (user ignored), default admin. */
  vnish: z.array(MinerCredential).default([]),
  /** LuxOS needs no credential (sessions); kept for firmware with a web password. */
  luxos: z.array(MinerCredential).default([]),
});
export type AgentCredentials = z.infer<typeof AgentCredentials>;

/** Batch-operation pacing: packets of packetSize miners, pauseMs between packets, concurrency inside a packet. */
export const BatchPacing = z.object({
  packetSize: z.number().int().min(1).default(50),
  pauseMs: z.number().int().min(0).default(3000),
  concurrency: z.number().int().min(1).default(50),
});
export type BatchPacing = z.infer<typeof BatchPacing>;

/** Port override (tests, port-forwarded farms). Defaults: rpc 4028, web 80, whatsminerV3 4433. */
export const MinerPorts = z.object({
  rpc: z.number().int().min(1).max(65535),
  web: z.number().int().min(1).max(65535),
  whatsminerV3: z.number().int().min(1).max(65535),
  /** The SSH port a security scan probes (default 22, security-scan.ts). */
  ssh: z.number().int().min(1).max(65535).optional(),
});
export type MinerPorts = z.infer<typeof MinerPorts>;

/** Agent configuration served by GET /config (the agent keeps the last good copy on disk). */
export const AgentConfig = z.object({
  /** Seconds between poll cycles. */
  pollIntervalSec: z.number().min(1).default(60),
  /** Consecutive failed polls before a miner is reported offline. */
  offlineAfterMissed: z.number().int().min(1).default(3),
  /** Re-scan the ranges every N cycles (and at start). */
  scanEveryCycles: z.number().int().min(1).default(10),
  scanRanges: z.array(ScanRange).default([]),
  credentials: AgentCredentials.default({ antminer: [], whatsminer: [], braiins: [], vnish: [], luxos: [] }),
  /** Allowed pool sets: each entry lists up to 3 pool URLs; a miner whose pools are not all inside one entry is on an illegal pool. Empty = no check. */
  poolWhitelist: z.array(z.array(z.string()).max(3)).default([]),
  batch: BatchPacing.default({ packetSize: 50, pauseMs: 3000, concurrency: 50 }),
  /** Concurrent miner connections while scanning / polling. */
  scanConcurrency: z.number().int().min(1).default(1000),
  pollConcurrency: z.number().int().min(1).default(1000),
  ports: MinerPorts.optional(),
});
export type AgentConfig = z.infer<typeof AgentConfig>;
export type AgentConfigInput = z.input<typeof AgentConfig>;

// ---------------------------------------------------------------- POST /snapshots

/**
 * One poll cycle (or a rolled-up set of buffered cycles). Sent gzip-compressed
 * (`Content-Type: application/json`, `Content-Encoding: gzip`). The server stores it once per
 * (agentKey, batchSeq): a repeated batchSeq is acknowledged with duplicate=true and not stored again.
 */
export const SnapshotBatch = z.object({
  agentVersion: z.string(),
  /** Monotonic per agent, survives restarts (persisted in the agent's data dir), starts at 1. */
  batchSeq: z.number().int().min(1),
  cycleStartedAt: z.string(),
  cycleDurationMs: z.number().min(0),
  snapshots: z.array(MinerSnapshot),
  /** True when this batch merges several buffered cycles (latest snapshot per miner) after a long outage. */
  rolledUp: z.boolean().optional(),
  /** For a rolled-up batch: the batchSeq range it replaces (inclusive); batchSeq equals rolledUpTo. */
  rolledUpFrom: z.number().int().min(1).optional(),
  rolledUpTo: z.number().int().min(1).optional(),
});
export type SnapshotBatch = z.infer<typeof SnapshotBatch>;

const BATCH_KEYS = new Set(Object.keys(SnapshotBatch.shape));
const isSeq = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/**
 * True when `b` is a SnapshotBatch exactly as SnapshotBatch.parse would return it (every key known, nothing to
 * strip): the server's fast path for 20,000-snapshot uploads. False means "not sure": validate with zod, which
 * gives the error (see isExactMinerSnapshot).
 */
export function isExactSnapshotBatch(b: unknown): b is SnapshotBatch {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
  const o = b as Record<string, unknown>;
  for (const k in o) if (!BATCH_KEYS.has(k) || o[k] === undefined) return false;
  if (
    typeof o.agentVersion !== 'string' ||
    !isSeq(o.batchSeq) ||
    typeof o.cycleStartedAt !== 'string' ||
    typeof o.cycleDurationMs !== 'number' ||
    !Number.isFinite(o.cycleDurationMs) ||
    o.cycleDurationMs < 0 ||
    !Array.isArray(o.snapshots) ||
    (o.rolledUp !== undefined && typeof o.rolledUp !== 'boolean') ||
    (o.rolledUpFrom !== undefined && !isSeq(o.rolledUpFrom)) ||
    (o.rolledUpTo !== undefined && !isSeq(o.rolledUpTo))
  )
    return false;
  for (const s of o.snapshots) if (!isExactMinerSnapshot(s)) return false;
  return true;
}

/** accepted = snapshots stored now (0 when duplicate); duplicate = batchSeq already stored earlier. */
export const SnapshotBatchResult = z.object({ accepted: z.number().int().min(0), duplicate: z.boolean() });
export type SnapshotBatchResult = z.infer<typeof SnapshotBatchResult>;

// ---------------------------------------------------------------- POST /heartbeat

/** What the agent reports about its computer (the NUC): shown on the NUC host info page and the dashboard. */
export const HostReport = z
  .object({
    hostname: z.string().max(200),
    /** Operating system, e.g. "Debian GNU/Linux 12 (bookworm), x64" or "Windows 10 Pro, x64". */
    os: z.string().max(200),
    cpuCores: z.number().int().min(0),
    memoryMb: z.number().min(0),
    /** Free space of the disk holding the agent's data (its buffer of readings). */
    diskFreeMb: z.number().min(0),
    uptimeSec: z.number().min(0),
    /** The computer's address on the farm network. */
    ip: z.string().max(64),
  })
  .partial();
export type HostReport = z.infer<typeof HostReport>;

/** Liveness + connectivity; netDelayMs is the round trip of the previous uplink call. */
export const Heartbeat = z.object({
  agentVersion: z.string(),
  startedAt: z.string(),
  netDelayMs: z.number().min(0),
  /** Batches waiting in the disk buffer. */
  bufferedBatches: z.number().int().min(0),
  /** Miners known (identified) by the agent. */
  miners: z.number().int().min(0),
  host: HostReport.optional(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;

export const HeartbeatResult = z.object({ serverTime: z.string() });
export type HeartbeatResult = z.infer<typeof HeartbeatResult>;

// ---------------------------------------------------------------- GET /tasks

/** How the pool worker name is suffixed: user + '.' + (ip with '.'→'x' | miner SN), or the user unchanged. */
export const WorkerSuffix = z.enum(['ip', 'sn', 'none']);
export type WorkerSuffix = z.infer<typeof WorkerSuffix>;

export const TaskPool = z.object({ url: z.string(), user: z.string(), password: z.string().default('x') });
export type TaskPool = z.infer<typeof TaskPool>;

/** Miner addressed by a task (ip is authoritative for the agent; sn is checked when present). */
export const TaskTarget = z.object({ minerId: z.string().optional(), ip: z.string(), sn: z.string().optional() });
export type TaskTarget = z.infer<typeof TaskTarget>;

const taskBase = { id: z.string(), targets: z.array(TaskTarget), createdAt: z.string().optional() };
const noParams = z.object({}).default({});

/** Batch operation pulled by the agent; `params` depend on `op`. */
export const AgentTask = z.discriminatedUnion('op', [
  z.object({ ...taskBase, op: z.literal('reboot'), params: noParams }),
  z.object({ ...taskBase, op: z.literal('blink-on'), params: noParams }),
  z.object({ ...taskBase, op: z.literal('blink-off'), params: noParams }),
  z.object({ ...taskBase, op: z.literal('set-pools'), params: z.object({ pools: z.array(TaskPool).min(1).max(3), workerSuffix: WorkerSuffix.default('none') }) }),
  z.object({ ...taskBase, op: z.literal('work-mode'), params: z.object({ mode: WorkMode }) }),
  z.object({ ...taskBase, op: z.literal('factory-reset'), params: noParams }),
  /** Changes the web/admin password of the miner; the server should add newPassword to the config credentials. */
  z.object({ ...taskBase, op: z.literal('change-password'), params: z.object({ newPassword: z.string().min(1) }) }),
  /** fileUrl: absolute URL or a path on the server (fetched with the agent's Authorization header). */
  z.object({ ...taskBase, op: z.literal('firmware-upgrade'), params: z.object({ fileUrl: z.string(), fileName: z.string().optional(), keepSettings: z.boolean().default(true) }) }),
  z.object({ ...taskBase, op: z.literal('dhcp'), params: noParams }),
  /** Server-side removal; the agent forgets the miner and acknowledges. */
  z.object({ ...taskBase, op: z.literal('remove'), params: noParams }),
  /** Percent of nominal hashrate, 65–100 (clamped by the server, spec 3 §4). */
  z.object({ ...taskBase, op: z.literal('adjust-hashrate'), params: z.object({ percent: z.number().min(65).max(100) }) }),
  z.object({ ...taskBase, op: z.literal('set-frequency'), params: z.object({ freqMhz: z.number().int().min(1) }) }),
  z.object({ ...taskBase, op: z.literal('power-percent'), params: z.object({ percent: z.number().min(1).max(100) }) }),
  /** Fans: automatic control, or a fixed duty cycle in percent (manual). */
  z.object({ ...taskBase, op: z.literal('set-fans'), params: z.object({ mode: z.enum(['auto', 'manual']), percent: z.number().int().min(0).max(100).optional() }) }),
  /** Read the miner's log and upload it (POST history-logs/:id, then results as for any task). */
  z.object({ ...taskBase, op: z.literal('history-log'), params: noParams }),
  /** Security scan (security-scan.ts): probe the SSH port, read the log; each result carries `security`. */
  z.object({ ...taskBase, op: z.literal('security-scan'), params: noParams }),
]);
export type AgentTask = z.infer<typeof AgentTask>;
export type AgentTaskOp = AgentTask['op'];
export const AGENT_TASK_OPS = [
  'reboot', 'blink-on', 'blink-off', 'set-pools', 'work-mode', 'factory-reset', 'change-password',
  'firmware-upgrade', 'dhcp', 'remove', 'adjust-hashrate', 'set-frequency', 'power-percent', 'set-fans',
] as const satisfies readonly AgentTaskOp[];

// ---------------------------------------------------------------- POST /tasks/:id/results

/** Per-miner outcome; reason is a stable code (see miner-capabilities.ts) plus optional detail after ':'. */
export const TaskMinerResult = z.object({
  ip: z.string(),
  ok: z.boolean(),
  reason: z.string().optional(),
  /** What a security-scan task saw on the miner (ok results of that op only). */
  security: SecurityScanReport.optional(),
});
export type TaskMinerResult = z.infer<typeof TaskMinerResult>;

/**
 * Results are posted incrementally (after each packet) with done=false and once more with done=true
 * when every target has a result. The server merges by ip (last write wins) and closes the task on done.
 */
export const TaskResultReport = z.object({ results: z.array(TaskMinerResult), done: z.boolean() });
export type TaskResultReport = z.infer<typeof TaskResultReport>;

export const TaskResultAck = z.object({ received: z.number().int().min(0) });
export type TaskResultAck = z.infer<typeof TaskResultAck>;
