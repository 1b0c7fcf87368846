/**
 * Fault analysis of one miner (spec 3 §1 "an AI fault analysis exists for a single miner", §3 "AI analysis result:
 * sn, reason, suggestion", §7 POST /api/ai/analysis, GET /api/ai/status {id}, GET /api/ai/result {id}). Ours is a
 * set of rules a farm technician would apply to the miner's latest reading and its last 24 hours (server:
 * domains/miners/fault-analysis.ts); no model and nothing leaves the server.
 */
import { z } from 'zod';

const agentKey = z.string().min(1, 'validation.agentKeyRequired').max(64);

export const AnalysisStartBody = z.object({ agentKey, ip: z.string().trim().min(1, 'validation.required').max(64) });
export type AnalysisStartBody = z.infer<typeof AnalysisStartBody>;
export const AnalysisIdQuery = z.object({ agentKey, id: z.string().uuid('validation.id') });
export type AnalysisIdQuery = z.infer<typeof AnalysisIdQuery>;

export const FINDING_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** What a rule can find (each has a reason and a suggestion in errors.json "analysis.<code>"). */
export const FINDING_CODES = [
  'offline',
  'missingBoard',
  'missingChips',
  'cannotStart',
  'zeroHashrate',
  'overheat',
  'runningHot',
  'fanStopped',
  'fanSlow',
  'noPoolConfigured',
  'noPoolAlive',
  'illegalPool',
  'lowHashrate',
  'weakBoard',
  'hwErrors',
  'rejects',
  'firmwareError',
  'unstable',
  'restarted',
  'sleeping',
  'lowPower',
  // from the miner's own log (domains/miners/fault-analysis-log.ts)
  'logPowerLost',
  'logFanLost',
  'logOverheat',
  'logTooCold',
  'logChainEeprom',
  'logChainChips',
  'logWrongFirmware',
  'logVoltage',
  'logPicTemp',
  'logTempSensor',
  'logI2c',
  'healthy',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export interface FaultFinding {
  code: FindingCode;
  severity: FindingSeverity;
  /** The figures the texts name (board number, temperature, percent …). */
  params: Record<string, string | number>;
  /** What was found and what to do, in the request's language. */
  reason: string;
  suggestion: string;
}

export type AnalysisStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * The miner's log in a run: none (not asked: not a stock Antminer, or the miner or the farm's agent is offline),
 * waiting (the agent reads it; the run is running meanwhile, with the findings from the reading), read (its findings
 * are in), unavailable (not read in time, or the agent could not read it).
 */
export type AnalysisLogStatus = 'none' | 'waiting' | 'read' | 'unavailable';

export interface AnalysisStarted {
  id: string;
  status: AnalysisStatus;
}

export interface AnalysisResult {
  id: string;
  status: AnalysisStatus;
  ip: string;
  sn: string;
  model: string;
  /** The most serious finding's reason and suggestion (the spec's result fields). */
  reason: string;
  suggestion: string;
  /** Every finding, most serious first (while the log is read: those from the reading). */
  findings: FaultFinding[];
  logStatus: AnalysisLogStatus;
  /** When the analysed reading was taken, and when the analysis ran. */
  readingAt: string | null;
  analysedAt: string;
}
