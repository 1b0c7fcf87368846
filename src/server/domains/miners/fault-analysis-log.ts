/**
 * The fault analysis's rules for the miner's own log (the kernel/miner log a history-log request reads;
 * miner-protocols.md "Kernel/miner log patterns": power lost, fan lost, over- and under-temperature, a chain's EEPROM
 * or data load failure, a chain short of chips, wrong firmware type, voltage, PIC and temperature-sensor reads, I²C
 * timeouts). Pure: the log text in, findings out — one per kind and hashboard, with how many lines say so — and the
 * merge with the findings from the reading, where a line that only repeats what the reading shows (the same board
 * short of chips, the same board missing, a stopped fan, overheating) adds nothing.
 */
import type { FindingCode } from '@shared/schemas/fault-analysis';
import { type RawFinding, bySeverity } from './fault-analysis-rules';

interface LogRule {
  code: FindingCode;
  severity: RawFinding['severity'];
  re: RegExp;
  /** Figures of a matching line (the chain is written 0-based; the findings name boards from 1, as the detail page does). */
  params?: (m: RegExpExecArray) => Record<string, string | number>;
}

const board = (chain: string | undefined) => Number(chain ?? 0) + 1;

const RULES: readonly LogRule[] = [
  { code: 'logPowerLost', severity: 'critical', re: /ERROR_POWER_LOST|\bpower (?:supply )?lost\b/i },
  { code: 'logFanLost', severity: 'critical', re: /ERROR_FAN_LOST|\bfan (?:\d+ )?lost\b/i },
  { code: 'logOverheat', severity: 'critical', re: /ERROR_TEMP_TOO_HIGH|\basic temp too high\b/i },
  { code: 'logTooCold', severity: 'warning', re: /ERROR_TEMP_TOO_LOW|\btemp(?:erature)? too low\b/i },
  {
    code: 'logChainChips',
    severity: 'critical',
    re: /\bChain\[?\s*(\d+)\]?\s+only find (\d+) asic/i,
    params: (m) => ({ board: board(m[1]), chips: Number(m[2]) }),
  },
  {
    code: 'logChainEeprom',
    severity: 'critical',
    re: /\bload chain (\d+)\b.*?\b(?:eeprom error|bad_asic_crc)|\bData load fail for chain (\d+)/i,
    params: (m) => ({ board: board(m[1] ?? m[2]) }),
  },
  { code: 'logWrongFirmware', severity: 'critical', re: /\bFW type (\S+?),.*?\bshows (\S+)/i, params: (m) => ({ type: m[1] ?? '', found: (m[2] ?? '').replace(/[.,;]$/, '') }) },
  { code: 'logVoltage', severity: 'warning', re: /_read_an6_voltage/ },
  { code: 'logPicTemp', severity: 'warning', re: /\bfail(?:ed)? to read pic temp for chain (\d+)/i, params: (m) => ({ board: board(m[1]) }) },
  { code: 'logTempSensor', severity: 'warning', re: /\bread temp sensor failed:?\s*chain\s*=\s*(\d+)/i, params: (m) => ({ board: board(m[1]) }) },
  { code: 'logI2c', severity: 'warning', re: /\bi2c: timeout waiting for bus ready/i },
];

/** Quick filter: most of a kernel log is boot noise without any of these words. */
const HINT = /error|lost|temp|chain|asic|fw type|voltage|i2c|fail/i;

/** The findings of a log: one per rule and board, `count` = the lines that say so; most serious first, then the rules' order. */
export function analyseLog(text: string): RawFinding[] {
  const found = new Map<string, RawFinding>();
  for (const line of text.split('\n')) {
    if (!HINT.test(line)) continue;
    for (const rule of RULES) {
      const m = rule.re.exec(line);
      if (!m) continue;
      const params = rule.params?.(m) ?? {};
      const key = `${rule.code} ${String(params.board ?? '')}`;
      const seen = found.get(key);
      if (seen) {
        seen.params.count = Number(seen.params.count) + 1;
        // the latest line's figures (a chain that finds fewer chips now)
        for (const [k, v] of Object.entries(params)) if (k !== 'board') seen.params[k] = v;
      } else found.set(key, { code: rule.code, severity: rule.severity, params: { ...params, count: 1 } });
      break;
    }
  }
  const order = (f: RawFinding) => RULES.findIndex((r) => r.code === f.code);
  return bySeverity([...found.values()].sort((a, b) => order(a) - order(b) || Number(a.params.board ?? 0) - Number(b.params.board ?? 0)));
}

/** What a log finding repeats from the reading's findings (same code there, same board). */
const SAME_AS: Partial<Record<FindingCode, FindingCode>> = {
  logChainChips: 'missingChips',
  logChainEeprom: 'missingBoard',
  logFanLost: 'fanStopped',
  logOverheat: 'overheat',
};

/**
 * The reading's findings and the log's, most serious first (the reading's before the log's of the same severity);
 * "healthy" goes when the log finds something.
 */
export function mergeLogFindings(reading: readonly RawFinding[], log: readonly RawFinding[]): RawFinding[] {
  const extra = log.filter((f) => {
    const same = SAME_AS[f.code];
    return !same || !reading.some((r) => r.code === same && (f.params.board === undefined || r.params.board === f.params.board));
  });
  if (extra.length === 0) return [...reading];
  return bySeverity([...reading.filter((f) => f.code !== 'healthy'), ...extra]);
}
