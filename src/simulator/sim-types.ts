/** Types shared by the simulator's devices, servers and fleet. */

export type SimFamily = 'antminer-stock' | 'whatsminer' | 'braiins' | 'vnish' | 'luxos';

/**
 * Faults the simulator can put on a miner. All but `ssh-intrusion` touch mining (hashrate, boards, fans, pools);
 * `ssh-intrusion` is a hijacked unit: SSH answers and its log shows a brute-forced root login (security scan; the
 * stock kernel log, VNish's syslog).
 */
export type FaultKind =
  | 'fan-failure' | 'missing-chip' | 'board-down' | 'high-temp'
  | 'zero-hashrate' | 'cannot-start' | 'offline' | 'illegal-pool' | 'ssh-intrusion';

/**
 * Network/format quirks (miner-protocols.md §10.1, §10.2). Malformed-JSON quirks apply to port-4028 replies;
 * `slow` and `reset` apply to every protocol. `error-code-brackets` is the Whatsminer 2.0.4 `error_code` list case.
 */
export type NetQuirk =
  | 'slow' | 'reset' | 'trailing-comma' | 'raw-newline' | 'concatenated-objects' | 'missing-comma'
  | 'inf-nan' | 'truncated' | 'leading-comma' | 'bracket-comma' | 'error-code-brackets' | 'none';

export const FAULT_KINDS: readonly FaultKind[] = [
  'fan-failure', 'missing-chip', 'board-down', 'high-temp', 'zero-hashrate', 'cannot-start', 'offline', 'illegal-pool',
  'ssh-intrusion',
];

/** Faults that are no hardware/mining error: firmware error lists (e.g. Braiins' errors API) leave them out. */
export const NON_MINING_FAULTS: readonly FaultKind[] = ['illegal-pool', 'ssh-intrusion'];

export const NET_QUIRKS: readonly NetQuirk[] = [
  'slow', 'reset', 'trailing-comma', 'raw-newline', 'concatenated-objects', 'missing-comma', 'inf-nan', 'truncated',
  'leading-comma', 'bracket-comma', 'error-code-brackets', 'none',
];

export const SIM_FAMILIES: readonly SimFamily[] = ['antminer-stock', 'whatsminer', 'braiins', 'vnish', 'luxos'];

export type WorkMode = 'normal' | 'sleep' | 'low-power' | 'high';
export type MinerState = 'online' | 'rebooting' | 'offline';

/**
 * How an offline miner looks from the network: `silent` — nothing answers, the caller times out (powered off, a cable
 * or switch down: what a farm sees most); `reset` — a TCP reset at once (the unit is up but nothing listens).
 */
export type OfflineAnswer = 'silent' | 'reset';
export const OFFLINE_ANSWERS: readonly OfflineAnswer[] = ['silent', 'reset'];

export interface SimPool { url: string; user: string; password: string; status: 'Alive' | 'Dead' | 'Disabled' }

/** Fleet-wide environment every device reads. */
export interface SimEnv {
  now(): number;
  seed: number;
  rebootDarkMs: number;
  /** ambient (inlet) air temperature in °C at `now` */
  ambientC(): number;
  /** HMAC secret for stateless digest nonces */
  secret: Buffer;
  /** How offline miners answer unless one is told otherwise (default `reset`). */
  offlineAnswer?: OfflineAnswer;
}

/** Delay used by the `slow` quirk. */
export const SLOW_REPLY_MS = 2500;
