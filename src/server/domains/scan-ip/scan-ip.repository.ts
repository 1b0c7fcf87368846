/**
 * Scan IP ranges of a farm (spec 2 §3, §5): list, save one, import a batch, delete. Every write runs in a
 * transaction holding the farm's row lock, so two concurrent saves cannot both pass the overlap check.
 * Messages that carry values (the other range, line numbers) are formatted with the caller's `Translate`.
 */
import { sql, type Transaction } from 'kysely';
import {
  type ParsedScanIpLine,
  type RangeBounds,
  SCAN_IP_LIMITS,
  type ScanIpLineError,
  type ScanIpRange,
  findOverlap,
  ipRangeSize,
  ipv4ToNumber,
} from '@shared/schemas/scan-ip';
import type { DB } from '../../db/kysely';
import type { Database } from '../../db/schema';
import { AppError, fieldError } from '../../errors';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** Lines of a batch error message before "…and N more". */
const MAX_REPORTED_LINES = 20;

interface RangeRow {
  id: string;
  agent_key: string;
  sort_no: number;
  ip_begin: string;
  ip_end: string;
  remark: string;
}

type StoredRange = RangeRow & RangeBounds;

export function toScanIpRange(r: RangeRow): ScanIpRange {
  return {
    id: r.id,
    sortNo: r.sort_no,
    ipBegin: r.ip_begin,
    ipEnd: r.ip_end,
    remark: r.remark,
    agentKey: r.agent_key,
    amount: ipRangeSize(r.ip_begin, r.ip_end),
  };
}

const COLUMNS = ['id', 'agent_key', 'sort_no', 'ip_begin', 'ip_end', 'remark'] as const;

export async function listScanRanges(db: DB, agentKey: string): Promise<ScanIpRange[]> {
  const rows = await db
    .selectFrom('scan_ip_ranges')
    .select(COLUMNS)
    .where('agent_key', '=', agentKey)
    .orderBy('sort_no')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toScanIpRange);
}

/** Locks the farm's row for the transaction and answers its ranges with numeric bounds. */
async function lockRanges(trx: Transaction<Database>, agentKey: string): Promise<StoredRange[]> {
  const farm = await trx.selectFrom('farms').select('agent_key').where('agent_key', '=', agentKey).forUpdate().executeTakeFirst();
  if (!farm) throw new AppError('notFound');
  const rows = await trx.selectFrom('scan_ip_ranges').select(COLUMNS).where('agent_key', '=', agentKey).orderBy('sort_no').orderBy('created_at').execute();
  // Rows are written only through these routes, so both addresses parse; a hand-edited bad row never matches.
  return rows.map((r) => ({ ...r, begin: ipv4ToNumber(r.ip_begin) ?? -1, end: ipv4ToNumber(r.ip_end) ?? -2 }));
}

function overlapMessage(t: Translate, other: StoredRange): string {
  return t('validation.scanIpOverlap', { sortNo: other.sort_no, ipBegin: other.ip_begin, ipEnd: other.ip_end });
}

const nextSortNo = (ranges: readonly StoredRange[]) => ranges.reduce((max, r) => Math.max(max, r.sort_no), 0) + 1;

export interface RangeInput {
  scanIpId?: string | undefined;
  ipBegin: string;
  ipEnd: string;
  remark: string;
}

/** Creates (no scanIpId, appended last) or edits a range of the farm; refuses an overlap with another range. */
export async function saveScanRange(db: DB, agentKey: string, input: RangeInput, t: Translate): Promise<ScanIpRange> {
  const bounds = { begin: ipv4ToNumber(input.ipBegin) as number, end: ipv4ToNumber(input.ipEnd) as number };
  return db.transaction().execute(async (trx) => {
    const ranges = await lockRanges(trx, agentKey);
    let others = ranges;
    if (input.scanIpId) {
      if (!ranges.some((r) => r.id === input.scanIpId)) throw new AppError('notFound');
      others = ranges.filter((r) => r.id !== input.scanIpId);
    } else if (ranges.length >= SCAN_IP_LIMITS.maxRangesPerFarm) {
      throw fieldError('ipBegin', 'validation.scanIpTooMany');
    }
    const overlap = findOverlap(bounds, others);
    if (overlap) throw fieldError('ipBegin', overlapMessage(t, overlap));
    const values = { ip_begin: input.ipBegin, ip_end: input.ipEnd, remark: input.remark };
    const row = input.scanIpId
      ? await trx.updateTable('scan_ip_ranges').set(values).where('id', '=', input.scanIpId).where('agent_key', '=', agentKey).returning(COLUMNS).executeTakeFirstOrThrow()
      : await trx.insertInto('scan_ip_ranges').values({ ...values, agent_key: agentKey, sort_no: nextSortNo(ranges) }).returning(COLUMNS).executeTakeFirstOrThrow();
    return toScanIpRange(row);
  });
}

/** One message naming every bad line ("Line 3: …"), at most MAX_REPORTED_LINES of them. */
export function formatLineErrors(errors: readonly ScanIpLineError[], t: Translate): string {
  const shown = errors.slice(0, MAX_REPORTED_LINES).map((e) => {
    const message = t(e.key, e.vars);
    return e.line > 0 ? t('validation.scanIpLine', { line: e.line, message }) : message;
  });
  if (errors.length > MAX_REPORTED_LINES) shown.push(t('validation.scanIpMoreLines', { count: errors.length - MAX_REPORTED_LINES }));
  return shown.join('\n');
}

/**
 * Saves the parsed lines of a batch import, appended in line order, all or nothing: a line overlapping a
 * saved range, or too many ranges for the farm, saves none.
 */
export async function saveScanRangeBatch(db: DB, agentKey: string, lines: readonly ParsedScanIpLine[], t: Translate): Promise<ScanIpRange[]> {
  return db.transaction().execute(async (trx) => {
    const ranges = await lockRanges(trx, agentKey);
    if (ranges.length + lines.length > SCAN_IP_LIMITS.maxRangesPerFarm) throw fieldError('scanIpList', 'validation.scanIpTooMany');
    const errors: ScanIpLineError[] = [];
    for (const line of lines) {
      const overlap = findOverlap(line, ranges);
      if (overlap) errors.push({ line: line.line, key: 'validation.scanIpOverlap', vars: { sortNo: overlap.sort_no, ipBegin: overlap.ip_begin, ipEnd: overlap.ip_end } });
    }
    if (errors.length) throw fieldError('scanIpList', formatLineErrors(errors, t));
    if (lines.length === 0) return [];
    const first = nextSortNo(ranges);
    const rows = await trx
      .insertInto('scan_ip_ranges')
      .values(lines.map((l, i) => ({ agent_key: agentKey, sort_no: first + i, ip_begin: l.ipBegin, ip_end: l.ipEnd, remark: l.remark })))
      .returning(COLUMNS)
      .execute();
    rows.sort((a, b) => a.sort_no - b.sort_no);
    return rows.map(toScanIpRange);
  });
}

/**
 * Deletes ranges of the farm, all or nothing: when any id is not a range of this farm (another farm's, or
 * already gone) nothing is deleted (404). The remaining ranges are renumbered 1..n in their order.
 */
export async function deleteScanRanges(db: DB, agentKey: string, ids: readonly string[]): Promise<number> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  return db.transaction().execute(async (trx) => {
    const ranges = await lockRanges(trx, agentKey);
    const own = new Set(ranges.map((r) => r.id));
    if (!unique.every((id) => own.has(id))) throw new AppError('notFound');
    const deleted = await trx.deleteFrom('scan_ip_ranges').where('agent_key', '=', agentKey).where('id', 'in', unique).executeTakeFirst();
    await sql`
      update scan_ip_ranges s set sort_no = r.n
      from (select id, row_number() over (order by sort_no, created_at, id) as n from scan_ip_ranges where agent_key = ${agentKey}) r
      where s.id = r.id and s.sort_no <> r.n
    `.execute(trx);
    return Number(deleted.numDeletedRows);
  });
}
