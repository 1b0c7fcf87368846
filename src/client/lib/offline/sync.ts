/**
 * The read side of the offline caches: delta sync of the synced collections (collections.ts) from
 * GET /api/sync/<name> into IndexedDB.
 *
 * - `syncCollection(agentKey, name)` fetches pages until `more` is false; each page is written in ONE Dexie
 *   transaction (drop the tombstones, store the rows, store the cursor; the miners through miner-store.ts), so a
 *   page is all or nothing and the stored cursor always matches the stored rows. The next page is fetched while the current one is written.
 *   Pages are asked as `format=columns` (field names once, each row an array: about half the bytes and a much
 *   cheaper answer for the server) and turned back into the row objects the stores keep (`rowsOfPage`).
 * - `startSyncLoop(agentKey)` → stop(): syncs at start, on `online`, when the page becomes visible, every 60 s
 *   while visible, when the server answers again after being unreachable (connectivity.ts), and on
 *   `syncNow(agentKey)`. Runs never overlap (one at a time per page). A failure is kept in syncState.error and
 *   retried at the next trigger; offline (or the server unreachable) nothing is attempted and nothing is recorded.
 *   A 401 stops the loop quietly (the session layer sends the user to log in; the loop starts again after login).
 * - `useSyncStatus(agentKey)` → { syncing, lastSyncedAt, error, minersCount } for the header / settings UI.
 *
 * A full miners sync (every page up to `more: false`) is measured as performance measure 'hf-sync-miners'.
 */
import Dexie, { type Table } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import type { MinerSyncRow, SyncColumnsPage, SyncPage } from '@shared/schemas/sync';
import { SYNC_COLLECTIONS, SYNC_PAGE_MAX, type SyncCollection } from '@shared/sync-collections';
import { ApiError, api } from '@client/lib/api-client';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { isEffectivelyOnline, subscribeServerReachable } from './connectivity';
import { OFFLINE_COLLECTIONS } from './collections';
import { type Cached, type SyncStateRecord, offlineDb } from './db';
import { type CachedMiner, clearMiners, countMiners, writeMiners } from './miner-store';

/**
 * Rows per page (and per IndexedDB transaction): the server's largest. A miners page rewrites every bucket it
 * touches (at 5,000 rows, all of them), so fewer, larger pages write less.
 */
export const SYNC_PAGE_ROWS = SYNC_PAGE_MAX;
/** Timer while the page is visible. */
export const SYNC_INTERVAL_MS = 60_000;
export const SYNC_MEASURE_MINERS = 'hf-sync-miners';

export interface SyncResult {
  collection: SyncCollection;
  pages: number;
  rows: number;
  deleted: number;
}

/** Thrown by syncCollection on 401: the loop stops without recording an error. */
export class SyncUnauthorizedError extends Error {
  constructor() {
    super('unauthorized');
    this.name = 'SyncUnauthorizedError';
  }
}

type AnyRow = { id: string; version: string };

/** Where a collection's pages land: the miners in their buckets (miner-store.ts), the others in a store of their name. */
interface CacheTarget {
  tables: Table[];
  clear(agentKey: string): Promise<unknown>;
  write(agentKey: string, rows: Cached<AnyRow>[], deleted: string[]): Promise<unknown>;
}

function targetOf(name: SyncCollection): CacheTarget {
  const db = offlineDb();
  if (name === 'miners') {
    return {
      tables: [db.minerBuckets, db.minerIndex],
      clear: clearMiners,
      write: (agentKey, rows, deleted) => writeMiners(agentKey, rows as CachedMiner[], deleted),
    };
  }
  const table: Table<Cached<AnyRow>, [string, string]> = db.table(name);
  return {
    tables: [table],
    clear: (agentKey) => table.where('[agentKey+id]').between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey]).delete(),
    write: async (agentKey, rows, deleted) => {
      if (deleted.length) await table.bulkDelete(deleted.map((id) => [agentKey, id] as [string, string]));
      if (rows.length) await table.bulkPut(rows);
    },
  };
}

/** The device offline, or the server not answering (connectivity.ts): nothing is attempted. */
function isOffline(): boolean {
  return !isEffectivelyOnline();
}

/** A failure worth showing: not the network being away, not a logged-out session. */
function isNetworkFailure(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 0;
  return err instanceof TypeError || (err instanceof DOMException && (err.name === 'AbortError' || err.name === 'TimeoutError'));
}

/**
 * The rows of an answer as stored: objects with the farm. A `format=columns` answer's arrays become objects with
 * the fields named by `columns`; an answer with object rows (a server without the compact format) is taken as is.
 */
export function rowsOfPage(page: SyncColumnsPage | SyncPage<AnyRow>, agentKey: string): Cached<AnyRow>[] {
  if (!('columns' in page) || !Array.isArray(page.columns)) return (page.rows as AnyRow[]).map((r) => ({ ...r, agentKey }));
  const { columns, rows } = page;
  const width = columns.length;
  const out = new Array<Cached<AnyRow>>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r]!;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < width; i++) row[columns[i]!] = values[i];
    row.agentKey = agentKey;
    out[r] = row as Cached<AnyRow>;
  }
  return out;
}

async function fetchPage(agentKey: string, name: SyncCollection, since: string | undefined, limit: number): Promise<SyncColumnsPage | SyncPage<AnyRow>> {
  try {
    return await api.get<SyncColumnsPage | SyncPage<AnyRow>>(`/api/sync/${name}`, { agentKey, since, limit, format: 'columns' }, { quiet401: true });
  } catch (err) {
    if (err instanceof ApiError && String(err.code) === '401') throw new SyncUnauthorizedError();
    throw err;
  }
}

async function patchState(agentKey: string, collection: SyncCollection, patch: Partial<SyncStateRecord>): Promise<void> {
  const db = offlineDb();
  await db.transaction('rw', db.syncState, async () => {
    const prev = await db.syncState.get([agentKey, collection]);
    await db.syncState.put({ agentKey, collection, cursor: '', syncedAt: null, error: null, ...prev, ...patch });
  });
}

/**
 * Brings one collection of one farm up to date. Resolves when the server said `more: false`; rejects on a
 * failure (pages already written stay written, with their cursor). 403 marks the collection `forbidden`.
 */
export async function syncCollection(agentKey: string, name: SyncCollection, opts: { limit?: number } = {}): Promise<SyncResult> {
  const db = offlineDb();
  const target = targetOf(name);
  const limit = opts.limit ?? SYNC_PAGE_ROWS;
  const state = await db.syncState.get([agentKey, name]);
  const result: SyncResult = { collection: name, pages: 0, rows: 0, deleted: 0 };
  const measured = name === 'miners' && typeof performance !== 'undefined' && typeof performance.mark === 'function';
  const startMark = `${SYNC_MEASURE_MINERS}-start`;
  if (measured) performance.mark(startMark);

  let pending: Promise<SyncColumnsPage | SyncPage<AnyRow>> = fetchPage(agentKey, name, state?.cursor || undefined, limit);
  try {
    for (;;) {
      const page = await pending;
      // Fetch the next page while this one is written.
      if (page.more) {
        pending = fetchPage(agentKey, name, page.cursor, limit);
        pending.catch(() => undefined); // awaited on the next turn; avoids an unhandled rejection meanwhile
      }
      const rows = rowsOfPage(page, agentKey);
      await db.transaction('rw', [...target.tables, db.syncState], async () => {
        if (page.reset) await target.clear(agentKey);
        await target.write(agentKey, rows, page.deleted);
        const prev = await db.syncState.get([agentKey, name]);
        await db.syncState.put({
          agentKey,
          collection: name,
          cursor: page.cursor,
          syncedAt: page.more ? (prev?.syncedAt ?? null) : Date.now(),
          error: null,
          forbidden: false,
        });
      });
      result.pages += 1;
      result.rows += rows.length;
      result.deleted += page.deleted.length;
      if (!page.more) break;
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) {
      await patchState(agentKey, name, { forbidden: true, error: null });
      return result;
    }
    throw err;
  }
  if (measured) {
    try {
      performance.measure(SYNC_MEASURE_MINERS, startMark);
      performance.clearMarks(startMark);
    } catch {
      /* measure unsupported: the sync itself succeeded */
    }
  }
  return result;
}

// ---- one run at a time ----------------------------------------------------------------------------------------

/** Runs are chained: never two at once. */
let tail: Promise<void> = Promise.resolve();
/** Per farm, the run requested but not started yet (later requests join it). */
const pendingRuns = new Map<string, Promise<void>>();
const syncingListeners = new Set<() => void>();
let syncingKey: string | null = null;

function setSyncing(key: string | null): void {
  if (syncingKey === key) return;
  syncingKey = key;
  for (const l of syncingListeners) l();
}

/** Every collection of the farm, one after the other. A 401 rejects with SyncUnauthorizedError. */
async function runAll(agentKey: string): Promise<void> {
  if (isOffline()) return;
  setSyncing(agentKey);
  try {
    for (const name of SYNC_COLLECTIONS) {
      try {
        await syncCollection(agentKey, name);
      } catch (err) {
        if (err instanceof SyncUnauthorizedError) throw err;
        // Offline, or the server out of reach: nothing to show (the age of lastSyncedAt tells), the next trigger retries.
        if (isOffline() || isNetworkFailure(err)) return;
        await patchState(agentKey, name, { error: err instanceof Error ? err.message : String(err) }).catch(() => undefined);
      }
    }
  } finally {
    setSyncing(null);
  }
}

/**
 * Syncs the farm's collections. Runs never overlap: a request made while a run is in progress starts one more
 * run right after it (so nothing committed meanwhile waits for the next trigger); requests made before that run
 * started join it. Rejects only with SyncUnauthorizedError.
 */
export function syncNow(agentKey: string): Promise<void> {
  const waiting = pendingRuns.get(agentKey);
  if (waiting) return waiting;
  const promise = tail.then(() => {
    pendingRuns.delete(agentKey);
    return runAll(agentKey);
  });
  pendingRuns.set(agentKey, promise);
  tail = promise.catch(() => undefined);
  return promise;
}

/**
 * Keeps the farm's caches fresh while the page is open; returns stop(). Triggers: start, `online`,
 * `visibilitychange` to visible, every SYNC_INTERVAL_MS while visible, the server reachable again. 401 stops the loop.
 */
export function startSyncLoop(agentKey: string, opts: { intervalMs?: number; userId?: string } = {}): () => void {
  let stopped = false;
  // Runs wait for it (one chain): the caches are the user's before the first page is written.
  if (opts.userId !== undefined) void claimOfflineCaches(opts.userId).catch((err: unknown) => console.error('offline caches: claim failed', err));
  const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
  const trigger = () => {
    if (stopped || isOffline()) return;
    syncNow(agentKey).catch((err: unknown) => {
      if (err instanceof SyncUnauthorizedError) stop();
    });
  };
  const onVisibility = () => {
    if (visible()) trigger();
  };
  const timer = setInterval(() => {
    if (visible()) trigger();
  }, opts.intervalMs ?? SYNC_INTERVAL_MS);
  window.addEventListener('online', trigger);
  document.addEventListener('visibilitychange', onVisibility);
  const unsubscribeReachable = subscribeServerReachable(trigger);
  function stop(): void {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    unsubscribeReachable();
    window.removeEventListener('online', trigger);
    document.removeEventListener('visibilitychange', onVisibility);
  }
  trigger();
  return stop;
}

// ---- logout ----------------------------------------------------------------------------------------------------

/** localStorage: the user whose data the offline caches hold. */
export const CACHE_OWNER_KEY = 'hf-offline-owner';

/** Runs `fn` between sync runs: no page of a run lands after it started. */
function betweenRuns(fn: () => Promise<void>): Promise<void> {
  const run = tail.then(fn);
  tail = run.catch(() => undefined);
  return run;
}

async function clearCaches(): Promise<void> {
  const db = offlineDb();
  const tables = OFFLINE_COLLECTIONS.filter((c) => c.userCopy).map((c) => db.table(c.name));
  await db.transaction('rw', tables, async () => {
    for (const table of tables) await table.clear();
  });
}

/**
 * The device's copies of the farms' data (miners, customers, cursors, recently opened miners) belong to one user.
 * Logout drops them (`forgetOfflineCaches`), so the next user of the phone syncs their own: a customer list needs
 * a permission they may lack. A session of another user than the caches' owner (a logout missed: the session
 * expired) drops them too before its first sync (`claimOfflineCaches`, called by startSyncLoop). The outbox is never
 * dropped: its changes wait for their author (outbox-user.ts). Both wait for a sync run in progress, so none of its
 * pages lands after the clear (a page without the rows before its cursor would hide them for good).
 */
export function forgetOfflineCaches(): Promise<void> {
  return betweenRuns(async () => {
    await clearCaches();
    writeStorage('local', CACHE_OWNER_KEY, null);
  });
}

export function claimOfflineCaches(userId: string): Promise<void> {
  return betweenRuns(async () => {
    const owner = readStorage('local', CACHE_OWNER_KEY);
    if (owner !== null && owner !== userId) await clearCaches();
    writeStorage('local', CACHE_OWNER_KEY, userId);
  });
}

// ---- one miner now -----------------------------------------------------------------------------------------------

/** GET: one miner of the farm as the feed gives it, now (src/server/routes/sync.ts). */
export const SYNC_MINER_ROW_URL = '/api/sync/miners/row';

/**
 * Fetches one miner now and writes it to the cache: the phone's open miner card. The feed sends a miner whose
 * readings changed nothing of substance only every few minutes (server: SYNC_READINGS_REFRESH_MINUTES), so the card
 * asks for its own miner while online. The row is written between sync runs, and only if the caches still belong to
 * the user they belonged to when it was asked (not after a logout meanwhile). Resolves true when written; offline
 * or no such miner: false. A failed request rejects (the cached row stays as it is).
 */
export async function refreshCachedMiner(agentKey: string, id: string): Promise<boolean> {
  if (isOffline()) return false;
  const owner = readStorage('local', CACHE_OWNER_KEY);
  if (owner === null) return false;
  const { row } = await api.get<{ row: MinerSyncRow | null }>(SYNC_MINER_ROW_URL, { agentKey, id }, { quiet401: true });
  if (!row) return false;
  let written = false;
  await betweenRuns(async () => {
    if (readStorage('local', CACHE_OWNER_KEY) !== owner) return;
    await writeMiners(agentKey, [{ ...row, agentKey }]);
    written = true;
  });
  return written;
}

// ---- status for the UI ----------------------------------------------------------------------------------------

export interface SyncStatus {
  /** A run for this farm is in progress. */
  syncing: boolean;
  /** Epoch ms of the oldest complete sync over the collections the user may read; null until each synced once. */
  lastSyncedAt: number | null;
  /** The last failure of any collection (message), null when the last attempts succeeded. */
  error: string | null;
  /** Miners of the farm in the cache. */
  minersCount: number;
}

const farmRange = (agentKey: string): [[string, unknown], [string, unknown]] => [
  [agentKey, Dexie.minKey],
  [agentKey, Dexie.maxKey],
];

/** Sync state of a farm read from IndexedDB (also outside React). */
export async function readSyncStatus(agentKey: string): Promise<Omit<SyncStatus, 'syncing'>> {
  const db = offlineDb();
  const [lo, hi] = farmRange(agentKey);
  const states = await db.syncState.where('[agentKey+collection]').between(lo, hi, true, true).toArray();
  const minersCount = await countMiners(agentKey);
  let lastSyncedAt: number | null = null;
  let never = false;
  for (const name of SYNC_COLLECTIONS) {
    const s = states.find((x) => x.collection === name);
    if (s?.forbidden) continue;
    if (!s?.syncedAt) never = true;
    else lastSyncedAt = lastSyncedAt === null ? s.syncedAt : Math.min(lastSyncedAt, s.syncedAt);
  }
  const error = states.find((s) => s.error)?.error ?? null;
  return { lastSyncedAt: never ? null : lastSyncedAt, error, minersCount };
}

function subscribeSyncing(listener: () => void): () => void {
  syncingListeners.add(listener);
  return () => syncingListeners.delete(listener);
}

const getSyncingKey = () => syncingKey;

/** Live sync status of the farm (re-renders on every page written and when a run starts or ends). */
export function useSyncStatus(agentKey: string | null): SyncStatus {
  const key = useSyncExternalStore(subscribeSyncing, getSyncingKey, getSyncingKey);
  const stored = useLiveQuery(() => (agentKey ? readSyncStatus(agentKey) : null), [agentKey]);
  return {
    syncing: agentKey !== null && key === agentKey,
    lastSyncedAt: stored?.lastSyncedAt ?? null,
    error: stored?.error ?? null,
    minersCount: stored?.minersCount ?? 0,
  };
}
