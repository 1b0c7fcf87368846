import { z } from 'zod';

/**
 * MinerSnapshot: one miner as seen by the farm agent in one poll cycle.
 * Units: hashrates GH/s, temperatures °C, fans RPM, power W, durations s, times ISO 8601 UTC.
 * Kept compact on purpose (≈ 20,000 per upload): optional keys are omitted rather than nulled,
 * per-chip status strings are only sent when they show a bad chip.
 */

/** Firmware family the agent speaks to (decides protocol and unit conversions). */
export const FirmwareFamily = z.enum(['antminer-stock', 'whatsminer', 'braiins', 'vnish', 'luxos', 'unknown']);
export type FirmwareFamily = z.infer<typeof FirmwareFamily>;

/** Normalised work mode (Antminer 0/1/2/3, Whatsminer power mode + mineroff, BOS pause, VNish state). */
export const WorkMode = z.enum(['normal', 'sleep', 'low-power', 'high']);
export type WorkMode = z.infer<typeof WorkMode>;

/** Pool status: Alive → alive, Dead/Rejecting/Disabled → dead, anything else → unknown. */
export const PoolStatus = z.enum(['alive', 'dead', 'unknown']);
export type PoolStatus = z.infer<typeof PoolStatus>;

/** How the unit gets its address: DHCP or a static configuration. */
export const NetworkMode = z.enum(['dhcp', 'static']);
export type NetworkMode = z.infer<typeof NetworkMode>;

/** Fault labels of spec 3 §4. */
export const FaultLabel = z.enum([
  'high-temperature',
  'missing-chip',
  'fan-speed-abnormal',
  'missing-hashboard',
  'hashboard-failure',
  'empty-sn',
  'duplicate-sn',
]);
export type FaultLabel = z.infer<typeof FaultLabel>;

/** One hashboard (chain). Absent sensors are left out of the temperature arrays (zeros filtered). */
export const MinerBoard = z.object({
  /** 0-based slot index. */
  index: z.number().int().min(0),
  /** Chips detected on this board. */
  chips: z.number().int().min(0),
  /** Chips this board should have (model catalogue, else the miner's own report). */
  expectedChips: z.number().int().min(0),
  /** Per-chip status string ("o" = ok); only present when it contains a bad chip. */
  chipStatus: z.string().optional(),
  tempPcb: z.array(z.number()),
  tempChip: z.array(z.number()),
  tempPic: z.array(z.number()),
  /** Real hashrate of this board, GH/s. */
  rateGhs: z.number().min(0),
  hwErrors: z.number().int().min(0),
  freqMhz: z.number().min(0).optional(),
  /** Board serial number when the firmware reports it. */
  sn: z.string().optional(),
  /** Firmware says this board failed (BOS tuner error, VNish chain failure …). */
  failed: z.boolean().optional(),
});
export type MinerBoard = z.infer<typeof MinerBoard>;

/** One configured pool, in failover order. */
export const MinerPool = z.object({
  url: z.string(),
  user: z.string(),
  status: PoolStatus,
  /** The pool currently receiving work (Stratum Active). */
  active: z.boolean(),
  accepted: z.number().int().min(0),
  rejected: z.number().int().min(0),
});
export type MinerPool = z.infer<typeof MinerPool>;

/** Firmware-reported error (Whatsminer numeric codes, Antminer health messages with code 0, …). */
export const MinerErrorCode = z.object({ code: z.number().int(), message: z.string() });
export type MinerErrorCode = z.infer<typeof MinerErrorCode>;

/**
 * Errors the agent reports itself in a reading's errorCodes, next to the firmware's (negative: never a firmware's code).
 * authFailed: the miner refused every login the agent has for its web pages or API (its readings then lack MAC, SN …);
 * writeDisabled: the miner's API refuses write commands.
 * Why an offline miner's last poll failed (its reading, repeated while it is offline, carries one of these; negative
 * Linux errno): noAnswer (-110, no answer in time: powered off, cable or switch down), refused (-111, the address
 * answers but nothing listens on the miner's API: rebooting, API off, another device), dropped (-104, the connection
 * was accepted and closed before a reply: the miner's software hung or restarting), unreachable (-113, the network
 * says there is no such host).
 */
export const AGENT_ERROR_CODES = { authFailed: -401, writeDisabled: -403, noAnswer: -110, refused: -111, dropped: -104, unreachable: -113 } as const;
/** The agent's codes of why an offline miner's poll failed. */
export const OFFLINE_REASON_CODES: readonly number[] = [AGENT_ERROR_CODES.noAnswer, AGENT_ERROR_CODES.refused, AGENT_ERROR_CODES.dropped, AGENT_ERROR_CODES.unreachable];

/**
 * State flags of spec 3 §4 (not mutually exclusive):
 * online (answered this cycle or missed fewer than offlineAfterMissed polls);
 * qualified = real (5 s) hashrate ≥ 80 % of ideal; unqualified = 0 < real < 80 % of ideal (not sleeping);
 * zeroHashrate = real == 0 while not sleeping; cannotStart = zero hashrate and (no hashboard detected or
 * the miner process has been up ≥ 600 s without hashing); illegalPool = configured pools are not all
 * inside one whitelist entry (never set when the whitelist is empty); abnormalIdeal = reported ideal
 * hashrate missing or deviating more than 20 % from the model catalogue; sleeping / lowPower from workMode.
 */
export const MinerStateFlags = z.object({
  online: z.boolean(),
  qualified: z.boolean(),
  unqualified: z.boolean(),
  zeroHashrate: z.boolean(),
  cannotStart: z.boolean(),
  illegalPool: z.boolean(),
  abnormalIdeal: z.boolean(),
  sleeping: z.boolean(),
  lowPower: z.boolean(),
});
export type MinerStateFlags = z.infer<typeof MinerStateFlags>;

export const MinerSnapshot = z.object({
  ip: z.string(),
  /** Upper-case colon MAC, '' when unknown. */
  mac: z.string(),
  /** Unit serial number, '' when the firmware does not report one (→ fault label empty-sn). */
  sn: z.string(),
  /** Manufacturer: 'Bitmain' | 'MicroBT' | … */
  make: z.string(),
  /** Model without vendor prefix, e.g. 'S19j Pro', 'S21', 'S19 XP Hyd', 'M60S VK40'. */
  model: z.string(),
  family: FirmwareFamily,
  /** Firmware version string as reported (e.g. Whatsminer '20230803.11.REL', VNish '1.2.7'). */
  firmwareVersion: z.string(),
  /** Firmware build time as ISO 8601 UTC (Antminer CompileTime), null when unknown. */
  compileTime: z.string().nullable(),
  /** Real-time (5 s) hashrate, GH/s. */
  rt5s: z.number().min(0),
  /** 30-minute hashrate (or the closest the firmware offers), GH/s. */
  rate30m: z.number().min(0),
  /** Average hashrate since start, GH/s. */
  avg: z.number().min(0),
  /** Ideal (theoretical) hashrate reported by the miner, GH/s (0 if unknown). */
  ideal: z.number().min(0),
  boards: z.array(MinerBoard),
  /** Fan speeds in RPM, one per fan slot (0 = stopped). */
  fans: z.array(z.number().min(0)),
  pools: z.array(MinerPool).max(3),
  workMode: WorkMode,
  /** Miner process uptime in seconds. */
  elapsedSec: z.number().min(0),
  powerW: z.number().min(0).optional(),
  /** Fault light (LED blink) state when known. */
  blink: z.boolean().optional(),
  /** DHCP or static addressing, when the firmware tells (Antminer nettype, Whatsminer proto, VNish dhcp). */
  networkMode: NetworkMode.optional(),
  errorCodes: z.array(MinerErrorCode),
  online: z.boolean(),
  /** Consecutive failed polls; > 0 means the data below is the last good reading. */
  missedPolls: z.number().int().min(0),
  state: MinerStateFlags,
  faultLabels: z.array(FaultLabel),
  /** When this data was read from the miner (last good read while missedPolls > 0). */
  takenAt: z.string(),
});
export type MinerSnapshot = z.infer<typeof MinerSnapshot>;

// ---------------------------------------------------------------- fast structural check

/*
 * A hand-written check of MinerSnapshot for the 20,000-snapshot uploads (≈ 5× faster than MinerSnapshot.parse).
 * It is stricter than the schema, never looser: it accepts only input the zod schema accepts and leaves unchanged
 * (every key known, nothing to strip or default), so a caller may use such input as parsed. Anything it refuses
 * goes through zod, which gives the error message (or accepts, e.g. when an unknown key is only to be stripped).
 * src/shared/schemas/miner-snapshot.test.ts compares the two on mutated snapshots.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNonNeg = (v: unknown) => isNum(v) && v >= 0;
const isInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v);
const isNonNegInt = (v: unknown) => isInt(v) && (v as number) >= 0;
const isStr = (v: unknown) => typeof v === 'string';
const isBool = (v: unknown) => typeof v === 'boolean';

/** Every own key of `o` is one of `allowed` (so zod would strip nothing). */
function onlyKeys(o: Obj, allowed: ReadonlySet<string>, required: number): boolean {
  let n = 0;
  for (const k in o) {
    if (!allowed.has(k)) return false;
    n++;
  }
  return n >= required;
}

function numArray(v: unknown, min0: boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!(min0 ? isNonNeg(x) : isNum(x))) return false;
  return true;
}

const SNAPSHOT_KEYS = new Set(Object.keys(MinerSnapshot.shape));
const BOARD_KEYS = new Set(Object.keys(MinerBoard.shape));
const POOL_KEYS = new Set(Object.keys(MinerPool.shape));
const ERROR_KEYS = new Set(Object.keys(MinerErrorCode.shape));
const FLAG_KEYS = Object.keys(MinerStateFlags.shape);
const FLAG_SET = new Set(FLAG_KEYS);
const FAMILIES = new Set<unknown>(FirmwareFamily.options);
const WORK_MODES = new Set<unknown>(WorkMode.options);
const POOL_STATUSES = new Set<unknown>(PoolStatus.options);
const FAULTS = new Set<unknown>(FaultLabel.options);
const NETWORK_MODES = new Set<unknown>(NetworkMode.options);
const SNAPSHOT_REQUIRED = SNAPSHOT_KEYS.size - 3; // powerW, blink, networkMode
const BOARD_REQUIRED = BOARD_KEYS.size - 4; // chipStatus, freqMhz, sn, failed

function isBoard(b: unknown): boolean {
  if (!isObj(b) || !onlyKeys(b, BOARD_KEYS, BOARD_REQUIRED)) return false;
  return (
    isNonNegInt(b.index) &&
    isNonNegInt(b.chips) &&
    isNonNegInt(b.expectedChips) &&
    (b.chipStatus === undefined ? !('chipStatus' in b) : isStr(b.chipStatus)) &&
    numArray(b.tempPcb, false) &&
    numArray(b.tempChip, false) &&
    numArray(b.tempPic, false) &&
    isNonNeg(b.rateGhs) &&
    isNonNegInt(b.hwErrors) &&
    (b.freqMhz === undefined ? !('freqMhz' in b) : isNonNeg(b.freqMhz)) &&
    (b.sn === undefined ? !('sn' in b) : isStr(b.sn)) &&
    (b.failed === undefined ? !('failed' in b) : isBool(b.failed))
  );
}

function isPool(p: unknown): boolean {
  return (
    isObj(p) &&
    onlyKeys(p, POOL_KEYS, POOL_KEYS.size) &&
    isStr(p.url) &&
    isStr(p.user) &&
    POOL_STATUSES.has(p.status) &&
    isBool(p.active) &&
    isNonNegInt(p.accepted) &&
    isNonNegInt(p.rejected)
  );
}

function isFlags(s: unknown): boolean {
  if (!isObj(s) || !onlyKeys(s, FLAG_SET, FLAG_KEYS.length)) return false;
  for (const k of FLAG_KEYS) if (!isBool(s[k])) return false;
  return true;
}

function every(v: unknown, test: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!test(x)) return false;
  return true;
}

/** True when `s` is a MinerSnapshot exactly as MinerSnapshot.parse would return it (see above); false = ask zod. */
export function isExactMinerSnapshot(s: unknown): s is MinerSnapshot {
  if (!isObj(s) || !onlyKeys(s, SNAPSHOT_KEYS, SNAPSHOT_REQUIRED)) return false;
  return (
    isStr(s.ip) &&
    isStr(s.mac) &&
    isStr(s.sn) &&
    isStr(s.make) &&
    isStr(s.model) &&
    FAMILIES.has(s.family) &&
    isStr(s.firmwareVersion) &&
    (s.compileTime === null || isStr(s.compileTime)) &&
    isNonNeg(s.rt5s) &&
    isNonNeg(s.rate30m) &&
    isNonNeg(s.avg) &&
    isNonNeg(s.ideal) &&
    every(s.boards, isBoard) &&
    numArray(s.fans, true) &&
    every(s.pools, isPool) &&
    (s.pools as unknown[]).length <= 3 &&
    WORK_MODES.has(s.workMode) &&
    isNonNeg(s.elapsedSec) &&
    (s.powerW === undefined ? !('powerW' in s) : isNonNeg(s.powerW)) &&
    (s.blink === undefined ? !('blink' in s) : isBool(s.blink)) &&
    (s.networkMode === undefined ? !('networkMode' in s) : NETWORK_MODES.has(s.networkMode)) &&
    every(s.errorCodes, (e) => isObj(e) && onlyKeys(e, ERROR_KEYS, 2) && isInt(e.code) && isStr(e.message)) &&
    isBool(s.online) &&
    isNonNegInt(s.missedPolls) &&
    isFlags(s.state) &&
    every(s.faultLabels, (f) => FAULTS.has(f)) &&
    isStr(s.takenAt)
  );
}
