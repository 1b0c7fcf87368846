/**
 * The rules of a miner's fault analysis (shared/schemas/fault-analysis.ts): what a technician checks, in order of
 * what stops a miner first — not answering, hashboards and chips, heat and fans, pools, then hashrate, errors and
 * stability. Pure: the latest reading and the last 24 hours' online share in, findings (codes and figures) out,
 * most serious first; "healthy" when nothing is found.
 */
import type { FindingCode, FindingSeverity } from '@shared/schemas/fault-analysis';
import { type MinerSnapshot, OFFLINE_REASON_CODES } from '@shared/schemas/miner-snapshot';

export interface RawFinding {
  code: FindingCode;
  severity: FindingSeverity;
  params: Record<string, string | number>;
}

export interface AnalysisInput {
  reading: Pick<MinerSnapshot, 'online' | 'missedPolls' | 'rt5s' | 'ideal' | 'boards' | 'fans' | 'pools' | 'workMode' | 'elapsedSec' | 'errorCodes' | 'state' | 'faultLabels'>;
  /** Poll samples over the last 24 hours and how many of them found the miner online (null: no history yet). */
  day: { samples: number; online: number } | null;
}

/** Chip temperature (°C) from which a miner is said to run hot; the agent's high-temperature label starts at 95. */
export const RUNNING_HOT_C = 85;
/** A fan below this share of the fastest fan of the miner is slow. */
const FAN_SLOW_SHARE = 0.5;
/** A board hashing below this share of the other boards' average is weak. */
const WEAK_BOARD_SHARE = 0.7;
/** Rejected shares above this share of a pool's shares (with at least REJECT_MIN_SHARES shares). */
const REJECT_SHARE = 0.05;
const REJECT_MIN_SHARES = 100;
/** Hardware errors of a board: at least this many and this many times the other boards' median. */
const HW_ERRORS_MIN = 100;
const HW_ERRORS_FACTOR = 10;
/** Online share of the last 24 hours below which the miner is unstable (with enough samples). */
const STABLE_SHARE = 0.95;
const STABLE_MIN_SAMPLES = 10;
/** Up for less than this long: restarted recently. */
const RESTARTED_SEC = 1800;

const ORDER: Record<FindingSeverity, number> = { critical: 0, warning: 1, info: 2 };
const pct = (part: number, whole: number) => Math.round((part / whole) * 100);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function analyseMiner({ reading: r, day }: AnalysisInput): RawFinding[] {
  const out: RawFinding[] = [];
  const add = (code: FindingCode, severity: FindingSeverity, params: Record<string, string | number> = {}) => out.push({ code, severity, params });

  if (!r.online) add('offline', 'critical', { missed: r.missedPolls });
  // An offline miner's figures are its last good reading: only the hardware they showed then is worth naming.
  for (const b of r.boards) {
    const board = b.index + 1;
    if (b.chips === 0 || b.failed) add('missingBoard', 'critical', { board });
    else if (b.expectedChips > 0 && b.chips < b.expectedChips) add('missingChips', 'critical', { board, chips: b.chips, expected: b.expectedChips });
  }
  if (r.online) {
    if (r.state.cannotStart) add('cannotStart', 'critical');
    else if (r.state.zeroHashrate) add('zeroHashrate', 'critical');
  }

  let hottest = { temp: -Infinity, board: 0 };
  for (const b of r.boards) for (const t of b.tempChip) if (t > hottest.temp) hottest = { temp: t, board: b.index + 1 };
  if (r.faultLabels.includes('high-temperature')) add('overheat', 'critical', { temp: Number.isFinite(hottest.temp) ? Math.round(hottest.temp) : '-', board: hottest.board || '-' });
  else if (hottest.temp >= RUNNING_HOT_C) add('runningHot', 'warning', { temp: Math.round(hottest.temp), board: hottest.board });

  const fastest = Math.max(0, ...r.fans);
  r.fans.forEach((rpm, i) => {
    if (rpm === 0) add('fanStopped', 'critical', { fan: i + 1 });
    else if (fastest > 0 && rpm < FAN_SLOW_SHARE * fastest) add('fanSlow', 'warning', { fan: i + 1, rpm: Math.round(rpm), fastest: Math.round(fastest) });
  });

  const configured = r.pools.filter((p) => p.url.trim() !== '');
  if (configured.length === 0) add('noPoolConfigured', 'critical');
  else if (r.online && !configured.some((p) => p.status === 'alive')) add('noPoolAlive', 'critical', { pools: configured.length });
  if (r.state.illegalPool) add('illegalPool', 'critical');

  const hashing = r.online && r.workMode === 'normal' && r.rt5s > 0;
  if (hashing && r.state.unqualified && r.ideal > 0) add('lowHashrate', 'warning', { percent: pct(r.rt5s, r.ideal) });
  if (hashing && r.boards.length >= 2) {
    for (const b of r.boards) {
      const others = r.boards.filter((o) => o !== b);
      const avg = others.reduce((a, o) => a + o.rateGhs, 0) / others.length;
      if (b.chips > 0 && avg > 0 && b.rateGhs < WEAK_BOARD_SHARE * avg) add('weakBoard', 'warning', { board: b.index + 1, percent: pct(b.rateGhs, avg) });
    }
    for (const b of r.boards) {
      const others = median(r.boards.filter((o) => o !== b).map((o) => o.hwErrors));
      if (b.hwErrors >= HW_ERRORS_MIN && b.hwErrors >= HW_ERRORS_FACTOR * Math.max(1, others)) add('hwErrors', 'warning', { board: b.index + 1, count: b.hwErrors });
    }
  }
  for (const p of configured) {
    const shares = p.accepted + p.rejected;
    if (shares >= REJECT_MIN_SHARES && p.rejected / shares > REJECT_SHARE) add('rejects', 'warning', { percent: pct(p.rejected, shares), pool: p.url });
  }
  // Why an offline miner's poll failed is the agent's, not the firmware's: the offline finding above covers it.
  for (const e of r.errorCodes) if (!OFFLINE_REASON_CODES.includes(e.code)) add('firmwareError', 'warning', { code: e.code, message: e.message });

  if (day && day.samples >= STABLE_MIN_SAMPLES && day.online / day.samples < STABLE_SHARE) add('unstable', 'warning', { percent: pct(day.online, day.samples) });
  if (r.online && r.elapsedSec < RESTARTED_SEC) add('restarted', 'info', { minutes: Math.max(1, Math.round(r.elapsedSec / 60)) });
  if (r.workMode === 'sleep') add('sleeping', 'info');
  if (r.workMode === 'low-power') add('lowPower', 'info');

  if (out.length === 0) add('healthy', 'info');
  return bySeverity(out);
}

/** Findings most serious first, in their order within a severity (a stable sort). */
export function bySeverity<F extends { severity: FindingSeverity }>(findings: readonly F[]): F[] {
  return findings.map((f, i) => ({ f, i })).sort((a, b) => ORDER[a.f.severity] - ORDER[b.f.severity] || a.i - b.i).map((x) => x.f);
}
