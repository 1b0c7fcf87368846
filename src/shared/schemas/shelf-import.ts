/**
 * Batch on/off shelf from a file (spec 3 §2 /setting/agent/online): an uploaded IP list (.txt one IP per line, or
 * Excel: column 1 IP, 2 SN, 3 customer; POST /api/miner/shelfImport/upload, the same parser and limits as the miner
 * list's IP-list upload), checked row by row against the farm's miners for one action (take off shelf or put back on
 * shelf), then applied to the rows that would change.
 *
 * A row's outcome for the action:
 * - change: a miner of the farm at that IP, not yet in the target state, and the file's SN (when given) is its SN;
 * - already: the miner is already off shelf (or on shelf);
 * - snMismatch: the file gives an SN and the miner at that IP has another one (or none): the IP may have moved to
 *   another miner since the sheet was written; applied only when asked for (includeSnMismatch);
 * - unknown: no miner of the farm has that IP.
 */
import { z } from 'zod';
import { boolish } from './common';

export const SHELF_ACTIONS = ['off', 'on'] as const;
export type ShelfAction = (typeof SHELF_ACTIONS)[number];
export const SHELF_OUTCOMES = ['change', 'already', 'snMismatch', 'unknown'] as const;
export type ShelfOutcome = (typeof SHELF_OUTCOMES)[number];

const agentKey = z.string().min(1, 'validation.agentKeyRequired').max(64);
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const ShelfImportRowsQuery = z.object({
  agentKey,
  fileId: z.string().uuid('validation.id'),
  action: z.enum(SHELF_ACTIONS, { message: 'validation.invalid' }),
  outcome: z.preprocess(blank, z.enum(SHELF_OUTCOMES, { message: 'validation.invalid' }).optional()),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
});
export type ShelfImportRowsQuery = z.infer<typeof ShelfImportRowsQuery>;

export const ShelfImportApplyBody = z.object({
  agentKey,
  fileId: z.string().uuid('validation.id'),
  action: z.enum(SHELF_ACTIONS, { message: 'validation.invalid' }),
  /** Also apply the rows whose SN differs from the miner's (default: skipped). */
  includeSnMismatch: z.preprocess(blank, boolish.default(false)),
});
export type ShelfImportApplyBody = z.infer<typeof ShelfImportApplyBody>;

export interface ShelfImportRow {
  /** The row's place in the file's list of distinct IPs (1-based, file order). */
  n: number;
  ip: string;
  /** The SN and customer the file gives ('' when none). */
  fileSn: string;
  fileCustomer: string;
  /** The miner at that IP: its SN, model, whether it is off shelf and online (null: no such miner). */
  sn: string | null;
  model: string | null;
  offShelf: boolean | null;
  online: boolean | null;
  outcome: ShelfOutcome;
}

export type ShelfImportSummary = Record<ShelfOutcome, number>;

export interface ShelfImportRowsPage {
  summary: ShelfImportSummary;
  list: ShelfImportRow[];
  /** Rows of the chosen outcome (all rows without one). */
  total: number;
  curPage: number;
  pageSize: number;
}

export interface ShelfImportApplyResult {
  action: ShelfAction;
  /** Miners whose shelf state this apply changed. */
  changed: number;
  /** The batch that took miners off shelf (batch log, off-shelf records); null when putting back on shelf or when nothing changed. */
  taskId: string | null;
  /** The outcomes of the file's rows just before applying. */
  summary: ShelfImportSummary;
  /** Rows left alone: SN mismatches not included. */
  skipped: number;
}
