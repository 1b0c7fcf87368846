import type { MinerModel } from '@shared/miner-models';
import type { FaultLabel, MinerSnapshot, MinerStateFlags } from '@shared/schemas/miner-snapshot';
import type { MinerReading } from './miner-types';
import { poolKey } from './normalise-util';

/**
 * Spec 3 §4 state flags and fault labels, computed from one reading, the model catalogue entry and the
 * pool whitelist. Thresholds are exported so the server/UI can show them.
 */

export const QUALIFIED_RATIO = 0.8;
export const ABNORMAL_IDEAL_TOLERANCE = 0.2;
export const HIGH_CHIP_TEMP_C = 95;
export const HIGH_PCB_TEMP_C = 85;
/** Whatsminer codes meaning over-temperature (35n, 360–363, 505n, 54nc/54nccc chip temp protected). */
const WM_HOT = (c: number) => (c >= 350 && c <= 363) || (c >= 5050 && c <= 5059) || (c >= 5400 && c <= 5499) || (c >= 540000 && c <= 549999);
/** Whatsminer fan codes (100–140). */
const WM_FAN = (c: number) => c >= 100 && c <= 140;

/** Canonical URL sets per whitelist entry (the same config arrays are checked for every miner every cycle). */
const allowedSets = new WeakMap<string[], Set<string>>();

function allowedSet(entry: string[]): Set<string> {
  let set = allowedSets.get(entry);
  if (!set) allowedSets.set(entry, (set = new Set(entry.map(poolKey))));
  return set;
}

/** True when every configured pool is inside one whitelist entry (or there is no whitelist). */
export function poolsAllowed(pools: Array<{ url: string }>, whitelist: string[][]): boolean {
  if (whitelist.length === 0) return true;
  const urls = pools.map((p) => p.url).filter((u) => u.trim() !== '').map(poolKey);
  if (urls.length === 0) return true;
  return whitelist.some((entry) => {
    const allowed = allowedSet(entry);
    return urls.every((u) => allowed.has(u));
  });
}

export function computeFlags(r: MinerReading, model: MinerModel | undefined, whitelist: string[][], online: boolean): MinerStateFlags {
  const sleeping = r.workMode === 'sleep';
  const lowPower = r.workMode === 'low-power';
  const ideal = r.ideal > 0 ? r.ideal : (model?.idealGhs ?? 0);
  const rt = r.rt5s;
  const boardsUp = r.boards.some((b) => b.chips > 0);
  const zero = online && !sleeping && rt <= 0;
  const qualified = online && ideal > 0 && rt >= QUALIFIED_RATIO * ideal;
  const unqualified = online && !sleeping && !lowPower && rt > 0 && ideal > 0 && rt < QUALIFIED_RATIO * ideal;
  const cannotStart = zero && !boardsUp;
  const abnormalIdeal =
    online && !sleeping && (r.ideal <= 0 || (model !== undefined && model.idealGhs > 0 && Math.abs(r.ideal - model.idealGhs) / model.idealGhs > ABNORMAL_IDEAL_TOLERANCE));
  return {
    online,
    qualified,
    unqualified,
    zeroHashrate: zero,
    cannotStart,
    illegalPool: online && !poolsAllowed(r.pools, whitelist),
    abnormalIdeal,
    sleeping: online && sleeping,
    lowPower: online && lowPower,
  };
}

export function computeFaultLabels(r: MinerReading, model: MinerModel | undefined): FaultLabel[] {
  const out: FaultLabel[] = [];
  const present = r.boards.filter((b) => b.chips > 0);
  let maxChip = 0;
  let maxPcb = 0;
  for (const b of r.boards) {
    for (const t of b.tempChip) if (t > maxChip) maxChip = t;
    for (const t of b.tempPcb) if (t > maxPcb) maxPcb = t;
  }
  const codes = r.errorCodes.map((e) => e.code);
  if (maxChip >= HIGH_CHIP_TEMP_C || maxPcb >= HIGH_PCB_TEMP_C || (r.family === 'whatsminer' && codes.some(WM_HOT))) out.push('high-temperature');
  if (present.some((b) => b.chips < b.expectedChips || (b.chipStatus !== undefined && /[^o]/.test(b.chipStatus)))) out.push('missing-chip');
  const expectedFans = model?.fans ?? r.fans.length;
  if ((expectedFans > 0 && (r.fans.length < expectedFans || r.fans.slice(0, expectedFans).some((f) => f <= 0))) || (r.family === 'whatsminer' && codes.some(WM_FAN))) {
    out.push('fan-speed-abnormal');
  }
  const expectedBoards = model?.hashboards ?? r.boards.length;
  // all boards absent = the miner is not running (cannotStart), not a missing hashboard
  if (present.length > 0 && present.length < expectedBoards) out.push('missing-hashboard');
  const anyHashing = present.some((b) => b.rateGhs > 0);
  if (r.boards.some((b) => b.failed) || (anyHashing && present.some((b) => b.rateGhs <= 0))) out.push('hashboard-failure');
  if (r.sn.trim() === '') out.push('empty-sn');
  return out;
}

/** Marks duplicate serials across one cycle's snapshots (in place). */
export function markDuplicateSns(snaps: MinerSnapshot[]): void {
  const count = new Map<string, number>();
  for (const s of snaps) if (s.sn) count.set(s.sn, (count.get(s.sn) ?? 0) + 1);
  for (const s of snaps) {
    const dup = s.sn !== '' && (count.get(s.sn) ?? 0) > 1;
    const has = s.faultLabels.includes('duplicate-sn');
    if (dup && !has) s.faultLabels.push('duplicate-sn');
    if (!dup && has) s.faultLabels = s.faultLabels.filter((l) => l !== 'duplicate-sn');
  }
}
