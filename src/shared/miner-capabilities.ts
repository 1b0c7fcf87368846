import type { FirmwareFamily, MinerStateFlags, WorkMode } from './schemas/miner-snapshot';

/**
 * Capability rules for batch operations (spec 3 §5), shared by agent and server.
 * Pure functions: a miner view in, `{ ok: true }` or `{ ok: false, reason }` out, where reason is one of
 * CAPABILITY_REASONS (stable strings, safe to store and translate).
 */

export const CAPABILITY_REASONS = [
  'offline',
  'model-not-supported',
  'firmware-not-supported',
  'firmware-too-old',
  'firmware-unknown',
  'zero-hashrate',
  'not-qualified',
  'not-normal-mode',
  'percent-out-of-range',
  'invalid-params',
] as const;
export type CapabilityReason = (typeof CAPABILITY_REASONS)[number];

export type CapabilityResult = { ok: true } | { ok: false; reason: CapabilityReason };

/** What the rules look at (a subset of MinerSnapshot). */
export interface CapabilityMiner {
  family: FirmwareFamily;
  /** Model without vendor prefix, e.g. 'S21', 'T21', 'S19j Pro', 'S19 XP Hyd'. */
  model: string;
  /** ISO 8601 build time as reported (date part = firmware date), or null. */
  compileTime: string | null;
  /** Raw firmware version string (used when it starts with a YYYYMMDD date, e.g. Whatsminer). */
  firmwareVersion?: string;
  rt5s: number;
  workMode: WorkMode;
  state: Pick<MinerStateFlags, 'online' | 'qualified'>;
}

/** Operations that have rules; other ops only need the miner online. */
export type CapabilityOp =
  | 'reboot' | 'blink-on' | 'blink-off' | 'set-pools' | 'work-mode' | 'factory-reset' | 'change-password'
  | 'firmware-upgrade' | 'dhcp' | 'remove' | 'adjust-hashrate' | 'set-frequency' | 'power-percent' | 'set-fans';

const OK: CapabilityResult = { ok: true };
const no = (reason: CapabilityReason): CapabilityResult => ({ ok: false, reason });

/** Normalises a model for comparisons: upper case, no vendor prefix, single spaces, 'HYDRO'/'HYD.' → 'HYD'. */
export function normaliseModelKey(model: string): string {
  return model
    .toUpperCase()
    .replace(/^(BITMAIN\s+)?ANTMINER\s+/, '')
    .replace(/HYDRO|HYD\./g, 'HYD')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Firmware date as YYYYMMDD number from compileTime's date part or a version starting with a date; null when unknown. */
export function firmwareDate(m: Pick<CapabilityMiner, 'compileTime' | 'firmwareVersion'>): number | null {
  const fromIso = m.compileTime ? /^(\d{4})-(\d{2})-(\d{2})/.exec(m.compileTime) : null;
  if (fromIso) return Number(`${fromIso[1]}${fromIso[2]}${fromIso[3]}`);
  const fromVer = m.firmwareVersion ? /^'?(20\d{6})/.exec(m.firmwareVersion) : null;
  if (fromVer) return Number(fromVer[1]);
  return null;
}

/** S21 family (S21, S21 Pro, S21+, S21 XP, S21+ Hyd …) or T21. */
export function isS21OrT21(model: string): boolean {
  const k = normaliseModelKey(model);
  return /^S21(\b|\+|\s|$)/.test(k) || /^T21(\b|\+|\s|$)/.test(k);
}

/** S19 family (S19, S19 Pro, S19j Pro, S19k Pro, S19 XP, S19 XP Hyd …). */
export function isS19(model: string): boolean {
  return /^S19/.test(normaliseModelKey(model));
}

/** The hashrate-adjust rule: S21/T21, firmware ≥ 20240520, real hashrate > 0, qualified, normal mode. */
export function canAdjustHashrate(m: CapabilityMiner, percent?: number): CapabilityResult {
  if (!m.state.online) return no('offline');
  if (m.family !== 'antminer-stock') return no('firmware-not-supported');
  if (!isS21OrT21(m.model)) return no('model-not-supported');
  const d = firmwareDate(m);
  if (d === null) return no('firmware-unknown');
  if (d < 20240520) return no('firmware-too-old');
  if (!(m.rt5s > 0)) return no('zero-hashrate');
  if (!m.state.qualified) return no('not-qualified');
  if (m.workMode !== 'normal') return no('not-normal-mode');
  if (percent !== undefined && (percent < 65 || percent > 100)) return no('percent-out-of-range');
  return OK;
}

/** The frequency rule: S19 only (stock firmware). */
export function canSetFrequency(m: CapabilityMiner): CapabilityResult {
  if (!m.state.online) return no('offline');
  if (m.family !== 'antminer-stock') return no('firmware-not-supported');
  if (!isS19(m.model)) return no('model-not-supported');
  return OK;
}

/**
 * The power-percent rule: S19 and S19 XP Hyd with firmware after 2024-09 (i.e. built 2024-10-01 or later);
 * also T21 and S19j XP on the same (latest official) firmware.
 */
export function canSetPowerPercent(m: CapabilityMiner, percent?: number): CapabilityResult {
  if (!m.state.online) return no('offline');
  if (m.family !== 'antminer-stock') return no('firmware-not-supported');
  const k = normaliseModelKey(m.model);
  if (!(isS19(k) || /^T21\b/.test(k))) return no('model-not-supported');
  const d = firmwareDate(m);
  if (d === null) return no('firmware-unknown');
  if (Math.floor(d / 100) <= 202409) return no('firmware-too-old');
  if (percent !== undefined && (percent <= 0 || percent > 100)) return no('percent-out-of-range');
  return OK;
}

/** Capability check for any batch op. `params` is the task's params (percent checked where relevant). */
export function checkCapability(op: CapabilityOp, m: CapabilityMiner, params?: { percent?: number }): CapabilityResult {
  switch (op) {
    case 'remove':
      return OK; // server-side only, works for offline miners too
    case 'adjust-hashrate':
      return canAdjustHashrate(m, params?.percent);
    case 'set-frequency':
      return canSetFrequency(m);
    case 'power-percent':
      return canSetPowerPercent(m, params?.percent);
    default:
      return m.state.online ? OK : no('offline');
  }
}
