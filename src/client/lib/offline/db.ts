/**
 * The one IndexedDB database of the console (Dexie 4), built from the declarations in collections.ts.
 * Record types live next to their store; callers use `offlineDb()` (opened lazily, one per page).
 */
import Dexie, { type Table } from 'dexie';
import type { CustomerSyncRow } from '@shared/schemas/sync';
import { declareOfflineSchema } from './collections';
import type { MinerBucketRecord, MinerIndexRecord } from './miner-store';

export const OFFLINE_DB_NAME = 'hashfield';

/** A synced row as stored: the server's row plus the farm it belongs to. */
export type Cached<Row> = Row & { agentKey: string };

export interface SyncStateRecord {
  agentKey: string;
  collection: string;
  /** Last cursor received ('' before the first sync). */
  cursor: string;
  /** Epoch ms of the last complete sync (all pages fetched). */
  syncedAt: number | null;
  /** Last failure of a sync attempt (message), cleared on success. */
  error: string | null;
  /** The server refused this collection to the user (403: the role lacks its permission); not an error, not retried each minute. */
  forbidden?: boolean;
}

export type OutboxState = 'pending' | 'sending' | 'failed' | 'dead';

export interface OutboxError {
  /** HTTP status (0 = network failure). */
  status: number;
  /** Error name of the envelope, when the server answered one. */
  code?: string;
  /** The server's (localised) reason, shown in dead letters. */
  message: string;
  /** The envelope's data (a 409 carries the server's row). */
  data?: unknown;
}

export interface OutboxEntry {
  /** UUIDv7, sent as Idempotency-Key. */
  id: string;
  /** What kind of change ('miner.note', 'miner.fault', 'miner.customer' …): picks the label and the edit form. */
  kind: string;
  method: 'POST' | 'PUT' | 'DELETE';
  /** API path, e.g. '/api/miner/notes'. */
  url: string;
  body: unknown;
  agentKey: string;
  /** The user who made the change (outbox-user.ts): only their session sends it. Absent on entries queued before. */
  userId?: string;
  /** Short human description for lists ("Note on 10.0.1.23"). */
  label: string;
  /** Epoch ms. */
  created: number;
  attempts: number;
  state: OutboxState;
  /** Epoch ms before which the entry is not retried (backoff). */
  nextAttemptAt: number;
  lastError: OutboxError | null;
}

export interface RecentMinerRecord {
  agentKey: string;
  minerId: string;
  openedAt: number;
}

export class HashfieldDb extends Dexie {
  minerBuckets!: Table<MinerBucketRecord, [string, number]>;
  minerIndex!: Table<MinerIndexRecord, [string, string]>;
  customers!: Table<Cached<CustomerSyncRow>, [string, string]>;
  syncState!: Table<SyncStateRecord, [string, string]>;
  outbox!: Table<OutboxEntry, string>;
  recentMiners!: Table<RecentMinerRecord, [string, string]>;

  constructor(name = OFFLINE_DB_NAME) {
    super(name);
    declareOfflineSchema(this);
  }
}

let instance: HashfieldDb | null = null;

/** The page's database (opened on first use). */
export function offlineDb(): HashfieldDb {
  instance ??= new HashfieldDb();
  return instance;
}

/** Tests: use a fresh database (fake-indexeddb in jsdom). */
export function resetOfflineDbForTests(name?: string): HashfieldDb {
  instance?.close();
  instance = new HashfieldDb(name ?? `${OFFLINE_DB_NAME}-test-${Math.random().toString(36).slice(2)}`);
  return instance;
}
