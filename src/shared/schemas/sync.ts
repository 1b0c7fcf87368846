/**
 * Delta sync contract (api-conventions.md "Delta sync for offline caches"):
 * GET /api/sync/<collection>?agentKey=…&since=<cursor>&limit=<n> →
 * data: { rows, deleted, cursor, more }. The cursor is the server's monotonically increasing row version
 * (a decimal string); no cursor = everything. Rows are the compact projections the offline screens need.
 */
import { z } from 'zod';
import type { MinerErrorCode } from './miner-snapshot';
import { SYNC_FORMATS, SYNC_PAGE_DEFAULT, SYNC_PAGE_MAX } from '../sync-collections';

/** Largest row version (PostgreSQL bigint). */
const MAX_VERSION = 9223372036854775807n;

export const SyncQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  since: z
    .string()
    .regex(/^\d{1,19}$/, 'validation.syncCursor')
    .refine((v) => !/^\d{1,19}$/.test(v) || BigInt(v) <= MAX_VERSION, 'validation.syncCursor')
    .optional(),
  limit: z.coerce.number({ message: 'validation.syncLimit' }).int('validation.syncLimit').min(1, 'validation.syncLimit').max(SYNC_PAGE_MAX, 'validation.syncLimit').default(SYNC_PAGE_DEFAULT),
  /** 'objects' (default): rows are objects; 'columns': rows are arrays in the order of `columns` (SyncColumnsPage). */
  format: z.enum(SYNC_FORMATS, { message: 'validation.syncFormat' }).default('objects'),
});
export type SyncQuery = z.infer<typeof SyncQuery>;

/** GET /api/sync/miners/row: one miner of the farm as the feed gives it (the phone's card refreshes from it while online). */
export const SyncMinerRowQuery = z.object({
  agentKey: z.string().min(1, 'validation.agentKeyRequired').max(64),
  id: z.string().uuid('validation.id'),
});
export type SyncMinerRowQuery = z.infer<typeof SyncMinerRowQuery>;

export interface SyncPage<Row> {
  rows: Row[];
  /** Keys (the collection's primary key) of rows removed since the cursor. */
  deleted: string[];
  /** Pass as `since` next time. Unchanged when nothing changed. */
  cursor: string;
  /** More rows wait: ask again at once with the new cursor. */
  more: boolean;
  /**
   * Only when true: the cursor sent is older than tombstones the server has pruned (kept 30 days), so this page
   * starts again from the beginning; the client drops its rows of the collection for this farm before writing it.
   */
  reset?: boolean;
}

/**
 * The compact answer of `format=columns`: the same page with each row as an array of values in the order of
 * `columns` (the field names of the row objects). Same rows, tombstones, cursor, more and reset as SyncPage;
 * the client turns each array back into the row object before storing it.
 */
export interface SyncColumnsPage extends Omit<SyncPage<never>, 'rows'> {
  columns: string[];
  rows: unknown[][];
}

/** A miner as the technician's phone keeps it (the card, search and scan work from this offline). */
export interface MinerSyncRow {
  id: string;
  ip: string;
  /** Upper-case SN ('' when the firmware reports none). */
  sn: string;
  mac: string;
  make: string;
  model: string;
  firmwareVersion: string;
  online: boolean;
  /** Spec 3 §4 states that hold, online/offline first. */
  statuses: string[];
  faultLabels: string[];
  /**
   * The reading's error codes as the list gives them; an offline miner's first is its agent's reason (-110 no answer,
   * -111 refused, -104 closed before a reply, -113 unreachable). Rows kept before this field have none (undefined).
   */
  errorCodes?: MinerErrorCode[];
  /** GH/s. */
  gHS5s: number;
  gHSav: number;
  rateIdeal: number;
  tempChipMax: number | null;
  tempPcbMax: number | null;
  fanMin: number | null;
  fanMax: number | null;
  workMode: string;
  /** Records kept by us (miner_marks). */
  customer: string | null;
  accident: string | null;
  accidentNote: string | null;
  offShelf: boolean;
  /** The sub-area holding the miner's IP, "Top / Row / Rack" (as the miner list's zone column); null outside every segment. */
  zone: string | null;
  /** Shelf name and seat, when the miner is placed (null until shelves exist for it). */
  shelf: string | null;
  seat: string | null;
  /** When the agent read the miner (ISO). */
  takenAt: string;
  /** Version of the miner's marks (customer, accident); sent back with a change, 409 when stale. */
  marksVersion: string;
  /** Row version (the sync cursor value of this row). */
  version: string;
}

export interface CustomerSyncRow {
  id: string;
  name: string;
  version: string;
}
