import type { AgentCredentials, MinerPorts, TaskPool, WorkerSuffix } from '@shared/schemas/agent-uplink';
import { AGENT_ERROR_CODES, type FirmwareFamily, type MinerSnapshot, type NetworkMode, type WorkMode } from '@shared/schemas/miner-snapshot';
import type { AntminerWeb } from './protocols/antminer-web';
import type { WhatsminerV2, WhatsminerV3 } from './protocols/whatsminer';

/** What the scanner learned about a miner (stable between scans). */
export interface IdentifiedMiner {
  ip: string;
  family: FirmwareFamily;
  make: string;
  /** Normalised model ('S19j Pro', 'M60S VK40'). */
  model: string;
  /** Model string as the firmware reported it. */
  reportedModel: string;
  firmwareVersion: string;
  compileTime: string | null;
  /** Whatsminer API generation chosen from the firmware date. */
  whatsminerApi?: 'v2' | 'v3';
  /** Antminer build ≥ 2023-07 answers the new API layout. */
  newApi?: boolean;
}

/** Snapshot fields a family driver produces; the poller adds flags, labels, online state and time. */
export type MinerReading = Omit<MinerSnapshot, 'online' | 'missedPolls' | 'state' | 'faultLabels' | 'takenAt'>;

/** Agent-generated error codes (negative, so they never collide with firmware codes). */
export const AGENT_ERROR = {
  authFailed: { code: AGENT_ERROR_CODES.authFailed, message: 'auth-failed: configured web credentials were rejected' },
  writeDisabled: { code: AGENT_ERROR_CODES.writeDisabled, message: "write API disabled (can't access write cmd)" },
  noAnswer: { code: AGENT_ERROR_CODES.noAnswer, message: 'offline: no answer in time' },
  refused: { code: AGENT_ERROR_CODES.refused, message: 'offline: connection refused' },
  dropped: { code: AGENT_ERROR_CODES.dropped, message: 'offline: connection closed before a reply' },
  unreachable: { code: AGENT_ERROR_CODES.unreachable, message: 'offline: host unreachable' },
} as const;

/** Long-lived per-miner state kept by the agent between cycles. */
export interface MinerHandle {
  id: IdentifiedMiner;
  /** multi-command RPC unsupported on this unit: one connection per command */
  noJoin?: boolean;
  /**
   * the unit has answered a joined request: one it then leaves unanswered means it does not answer now (powered off,
   * cut off, hung), not that it cannot join — no second wait for one connection per command (joinOptions, learnJoin)
   */
  joinOk?: boolean;
  web?: AntminerWeb;
  wm2?: WhatsminerV2;
  wm3?: WhatsminerV3;
  /** REST token (VNish / Braiins) */
  restToken?: string;
  /** slowly changing details (mac, sn, blink, network mode) and the cycle they were read */
  detail?: { mac: string; sn: string; blink?: boolean; net?: NetworkMode; cycle: number };
  /** cycle counter for this miner */
  cycle: number;
  /** its previous poll failed (set by the poller before each read): a driver may ask its fallbacks at once */
  missing?: boolean;
}

/** Runtime settings every driver call receives. */
export interface DriverEnv {
  ports: MinerPorts;
  credentials: AgentCredentials;
  connectTimeoutMs: number;
  rpcTimeoutMs: number;
  webTimeoutMs: number;
  /**
   * Re-read slow details (MAC, SN, LED, network mode) every N cycles at the latest. They change only when the unit
   * reboots, is swapped or was operated on, and the poller forces a refresh on those (Poller: first sight, elapsed
   * went down, identity changed, back after being offline, after an operation), so this is a safety net.
   */
  detailEveryCycles: number;
}

/** Default of DriverEnv.detailEveryCycles: hourly at the default 60 s cycle. */
export const DEFAULT_DETAIL_EVERY_CYCLES = 60;

export const DEFAULT_PORTS: MinerPorts = { rpc: 4028, web: 80, whatsminerV3: 4433 };

/** Failure of a batch operation with a stable reason code. */
export class OpError extends Error {
  constructor(
    readonly reason: string,
    message?: string,
  ) {
    super(message ?? reason);
    this.name = 'OpError';
  }
}

/** A driver's operation its firmware has no way to do (the task reports the miner as unsupported). */
export const unsupportedOp = (): Promise<never> => Promise.reject(new OpError('unsupported-op'));

export interface FamilyDriver {
  read(h: MinerHandle, env: DriverEnv): Promise<MinerReading>;
  reboot(h: MinerHandle, env: DriverEnv): Promise<void>;
  blink(h: MinerHandle, env: DriverEnv, on: boolean): Promise<void>;
  setPools(h: MinerHandle, env: DriverEnv, pools: TaskPool[], suffix: WorkerSuffix, sn: string): Promise<void>;
  workMode(h: MinerHandle, env: DriverEnv, mode: WorkMode): Promise<void>;
  factoryReset(h: MinerHandle, env: DriverEnv): Promise<void>;
  /** Returns nothing; the caller should make the new password part of the credentials. */
  changePassword(h: MinerHandle, env: DriverEnv, newPassword: string): Promise<void>;
  firmwareUpgrade(h: MinerHandle, env: DriverEnv, file: Buffer, fileName: string, keepSettings: boolean): Promise<void>;
  dhcp(h: MinerHandle, env: DriverEnv): Promise<void>;
  adjustHashrate(h: MinerHandle, env: DriverEnv, percent: number): Promise<void>;
  setFrequency(h: MinerHandle, env: DriverEnv, freqMhz: number): Promise<void>;
  powerPercent(h: MinerHandle, env: DriverEnv, percent: number): Promise<void>;
  /** Fan control: automatic, or a fixed duty cycle (percent) in manual mode. */
  setFans(h: MinerHandle, env: DriverEnv, mode: 'auto' | 'manual', percent?: number): Promise<void>;
}

/**
 * Detail refresh schedule: due on the first poll, then every `every` cycles (or earlier when the poller
 * invalidates it, see Poller.invalidateDetail). The first refresh is back-dated by a per-IP offset so
 * 20,000 miners do not all refresh in the same cycle.
 */
export function detailDue(h: MinerHandle, every: number): boolean {
  return !h.detail || h.cycle - h.detail.cycle >= every;
}

export function detailStamp(h: MinerHandle, every: number): number {
  if (h.detail) return h.cycle;
  let x = 0;
  for (let i = 0; i < h.id.ip.length; i++) x = (x * 31 + h.id.ip.charCodeAt(i)) >>> 0;
  return h.cycle - (x % Math.max(1, every));
}

/** What rpcMulti should know of a unit's joined requests (MinerHandle.noJoin, joinOk). */
export function joinOptions(h: MinerHandle): { noJoin?: boolean; joinProven?: boolean } {
  return { noJoin: h.noJoin, joinProven: h.joinOk };
}

/** Learns from a multi-command read whether the unit joins requests. */
export function learnJoin(h: MinerHandle, r: { joined: boolean; joinUnsupported: boolean }): void {
  if (r.joinUnsupported) h.noJoin = true;
  if (r.joined) h.joinOk = true;
}
