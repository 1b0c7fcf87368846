/**
 * Scan IP ranges (spec 2 §3, §5, §7): the IPv4 ranges the farm's agent scans to find miners.
 * Request schemas shared by the server routes and the client forms, and the pure helpers behind them:
 * address arithmetic, the batch-import parser (`begin-end-remark`, one per line) and the overlap check.
 * Messages are i18n keys of namespace `errors`.
 */
import { z } from 'zod';
import { findMenuByKey } from '../menu-catalogue';
import { isIPv4 } from '../validation';
import { commaList } from './common';

const menu = findMenuByKey('scanIpRanges');
/** Catalogue entry scanIpRanges: 82000 to see the list, 82500 (its operation key) to change it. */
export const SCAN_IP_PERMISSION = { view: menu?.permission ?? 82_000, operate: menu?.operation ?? 82_500 } as const;

export const SCAN_IP_LIMITS = {
  /** Addresses in one range: a /16. */
  maxAddresses: 65_536,
  remarkMax: 200,
  /** Non-blank lines of one batch import. */
  batchMaxLines: 500,
  /** Characters of one batch import text. */
  batchMaxChars: 200_000,
  /** Ranges of one farm. */
  maxRangesPerFarm: 1_000,
} as const;

/** Row of GET /api/scanip/list (spec 2 §3 "Scan IP range"); amount = number of addresses in the range. */
export interface ScanIpRange {
  id: string;
  sortNo: number;
  ipBegin: string;
  ipEnd: string;
  remark: string;
  agentKey: string;
  amount: number;
}

/** The address as an unsigned 32-bit number, or null when it is not a dotted-quad IPv4 address. */
export function ipv4ToNumber(ip: string): number | null {
  if (!isIPv4(ip)) return null;
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** Addresses from ipBegin to ipEnd inclusive; 0 when either is invalid or the order is reversed. */
export function ipRangeSize(ipBegin: string, ipEnd: string): number {
  const b = ipv4ToNumber(ipBegin);
  const e = ipv4ToNumber(ipEnd);
  if (b === null || e === null || e < b) return 0;
  return e - b + 1;
}

export interface RangeProblem {
  field: 'ipBegin' | 'ipEnd' | 'remark';
  key: string;
}

/**
 * Every rule of one range (spec 2 §5: both addresses required and valid IPv4; and begin ≤ end, at most
 * a /16, remark ≤ 200). Answers the problems, first the begin address, then the end, then the remark.
 */
export function checkScanRange(ipBegin: string, ipEnd: string, remark = ''): RangeProblem[] {
  const problems: RangeProblem[] = [];
  const b = ipv4ToNumber(ipBegin.trim());
  const e = ipv4ToNumber(ipEnd.trim());
  if (b === null) problems.push({ field: 'ipBegin', key: 'validation.ipAddress' });
  if (e === null) problems.push({ field: 'ipEnd', key: 'validation.ipAddress' });
  if (b !== null && e !== null) {
    if (e < b) problems.push({ field: 'ipEnd', key: 'validation.ipOrder' });
    else if (e - b + 1 > SCAN_IP_LIMITS.maxAddresses) problems.push({ field: 'ipEnd', key: 'validation.ipRangeSize' });
  }
  if (remark.trim().length > SCAN_IP_LIMITS.remarkMax) problems.push({ field: 'remark', key: 'validation.scanIpRemarkMax' });
  return problems;
}

/** Numeric bounds of a range, for overlap checks. */
export interface RangeBounds {
  begin: number;
  end: number;
}

export function rangesOverlap(a: RangeBounds, b: RangeBounds): boolean {
  return a.begin <= b.end && b.begin <= a.end;
}

/** The first of `others` that shares an address with `range`, if any. */
export function findOverlap<T extends RangeBounds>(range: RangeBounds, others: readonly T[]): T | undefined {
  return others.find((o) => rangesOverlap(range, o));
}

/** A problem of the batch text: `line` is 1-based in the text as typed (blank lines count), 0 for the whole text. */
export interface ScanIpLineError {
  line: number;
  key: string;
  vars?: Record<string, string | number>;
}

export interface ParsedScanIpLine extends RangeBounds {
  line: number;
  ipBegin: string;
  ipEnd: string;
  remark: string;
  amount: number;
}

export interface ParsedScanIpList {
  ranges: ParsedScanIpLine[];
  errors: ScanIpLineError[];
}

/**
 * One line `begin-end-remark` (spec 2 §5 batch import). Spaces around the parts are ignored; the remark
 * is optional and is everything after the second '-', so it may itself contain '-'.
 */
export function splitScanIpLine(line: string): { ipBegin: string; ipEnd: string; remark: string } | null {
  const first = line.indexOf('-');
  if (first < 0) return null;
  const rest = line.slice(first + 1);
  const second = rest.indexOf('-');
  const ipBegin = line.slice(0, first).trim();
  const ipEnd = (second < 0 ? rest : rest.slice(0, second)).trim();
  const remark = second < 0 ? '' : rest.slice(second + 1).trim();
  if (ipBegin === '' || ipEnd === '') return null;
  return { ipBegin, ipEnd, remark };
}

/**
 * Parses the batch text: blank lines are skipped, each bad line is reported with its line number, and
 * lines that overlap an earlier line are reported too. The caller saves nothing when `errors` is not empty.
 */
export function parseScanIpList(text: string): ParsedScanIpList {
  const ranges: ParsedScanIpLine[] = [];
  const errors: ScanIpLineError[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  const filled = lines.filter((l) => l.trim() !== '').length;
  if (filled === 0) return { ranges, errors: [{ line: 0, key: 'validation.scanIpListRequired' }] };
  if (filled > SCAN_IP_LIMITS.batchMaxLines || text.length > SCAN_IP_LIMITS.batchMaxChars)
    return { ranges, errors: [{ line: 0, key: 'validation.scanIpBatchMax', vars: { max: SCAN_IP_LIMITS.batchMaxLines } }] };
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const parts = splitScanIpLine(raw);
    if (!parts) {
      errors.push({ line, key: 'validation.scanIpLineFormat' });
      return;
    }
    const problem = checkScanRange(parts.ipBegin, parts.ipEnd, parts.remark)[0];
    if (problem) {
      errors.push({ line, key: problem.key });
      return;
    }
    const begin = ipv4ToNumber(parts.ipBegin) as number;
    const end = ipv4ToNumber(parts.ipEnd) as number;
    const earlier = findOverlap({ begin, end }, ranges);
    if (earlier) {
      errors.push({ line, key: 'validation.scanIpOverlapLine', vars: { other: earlier.line } });
      return;
    }
    ranges.push({ line, ...parts, begin, end, amount: end - begin + 1 });
  });
  return { ranges, errors };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const emptyToUndef = (v: unknown) => (v === '' || v === null ? undefined : v);
const agentKey = z.string().trim().min(1, 'validation.agentKeyRequired');
const ipField = z.string('validation.ipAddress').trim().refine(isIPv4, 'validation.ipAddress');
const rangeFields = {
  ipBegin: ipField,
  ipEnd: ipField,
  remark: z.string().trim().max(SCAN_IP_LIMITS.remarkMax, 'validation.scanIpRemarkMax').default(''),
};

/** Cross-field rules once both addresses are valid: begin ≤ end (numerically) and at most a /16. */
export function refineRange(v: { ipBegin: string; ipEnd: string }, ctx: z.RefinementCtx): void {
  for (const p of checkScanRange(v.ipBegin, v.ipEnd)) {
    if (p.key !== 'validation.ipAddress') ctx.addIssue({ code: 'custom', message: p.key, path: [p.field] });
  }
}

/** The add / edit dialog's fields. */
export const ScanIpRangeForm = z.object(rangeFields).superRefine(refineRange);
export type ScanIpRangeForm = z.input<typeof ScanIpRangeForm>;

/**
 * POST /api/scanip/save: creates without scanIpId, edits with it. `amount` is sent by the spec's client but
 * ignored: the server stores the addresses and answers the count it computes.
 */
export const SaveScanIpBody = z
  .object({
    agentKey,
    scanIpId: z.preprocess(emptyToUndef, z.string().uuid('validation.id').optional()),
    amount: z.unknown().optional().describe('Ignored: the server computes the address count.'),
    ...rangeFields,
  })
  .superRefine(refineRange);

/** POST /api/scanip/batchSave: scanIpList is text, one `begin-end-remark` per line. */
export const BatchSaveScanIpBody = z.object({
  agentKey,
  scanIpList: z
    .string('validation.scanIpListRequired')
    .max(SCAN_IP_LIMITS.batchMaxChars, 'validation.scanIpBatchMax')
    .refine((v) => v.trim() !== '', 'validation.scanIpListRequired'),
});

/** POST /api/scanip/delete: scanIpId is one id or several, comma-joined (batch delete). */
export const DeleteScanIpBody = z.object({
  agentKey,
  scanIpId: z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    commaList.pipe(
      z
        .array(z.string())
        .min(1, 'validation.scanIpIds')
        .max(SCAN_IP_LIMITS.maxRangesPerFarm, 'validation.scanIpIds')
        .refine((ids) => ids.every((id) => UUID_RE.test(id)), 'validation.id'),
    ),
  ),
});
