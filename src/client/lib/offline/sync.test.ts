import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomerSyncRow, MinerSyncRow } from '@shared/schemas/sync';
import { configureApiClient } from '@client/lib/api-client';
import { reportNetworkFailure, reportServerAnswer, resetConnectivityForTests } from './connectivity';
import { type HashfieldDb, resetOfflineDbForTests } from './db';
import { CACHE_OWNER_KEY, SYNC_MEASURE_MINERS, SYNC_MINER_ROW_URL, claimOfflineCaches, refreshCachedMiner, forgetOfflineCaches, readSyncStatus, startSyncLoop, syncCollection, syncNow, useSyncStatus } from './sync';
import { findMinerBySn } from './miner-lookup';
import { allMiners, getMiner } from './miner-store';
import { putTestMiners, testMinerRow } from './test-miner-row';

/**
 * A fake sync server: an ordered change log per collection (row or deletion, each with its version), answered
 * like GET /api/sync/<name> (version > since, cut at limit, cursor = last version included).
 */
type Change<Row> = { version: number; row?: Row; deletedId?: string };

class FakeFeed {
  version = 0;
  log: Record<string, Change<MinerSyncRow | CustomerSyncRow>[]> = { miners: [], customers: [] };
  calls: { collection: string; since: string | null; limit: number; format: string | null }[] = [];
  /** Answer object rows even when asked for columns (a server without the compact format). */
  objectsOnly = false;
  /** Per call index: an answer that replaces the feed's (status + envelope). */
  failures = new Map<number, { status: number; code: number | string; msg: string }>();
  reset = false;
  forbidden = new Set<string>();

  miner(i: number, over: Partial<MinerSyncRow> = {}): void {
    this.version += 1;
    const row: MinerSyncRow = {
      ...testMinerRow({ id: `m-${i}`, ip: `10.0.0.${i}`, sn: `SN${String(i).padStart(15, '0')}` }),
      ...over,
      version: String(this.version),
    };
    this.log.miners!.push({ version: this.version, row });
  }

  customer(id: string, name: string): void {
    this.version += 1;
    this.log.customers!.push({ version: this.version, row: { id, name, version: String(this.version) } });
  }

  remove(collection: string, id: string): void {
    this.version += 1;
    this.log[collection]!.push({ version: this.version, deletedId: id });
  }

  /** Rows of GET /api/sync/miners/row newer than the feed's (readings the feed holds back), by id. */
  now = new Map<string, MinerSyncRow>();

  /** While set, every answer waits for it. */
  gate: Promise<void> | null = null;

  fetch = vi.fn(async (input: string) => {
    if (this.gate) await this.gate;
    const url = new URL(input, 'http://localhost');
    if (url.pathname === SYNC_MINER_ROW_URL) {
      // The miner now: its latest row in the log, whether or not the feed would send it.
      this.calls.push({ collection: 'miners/row', since: null, limit: 0, format: null });
      const id = url.searchParams.get('id');
      const row = this.now.get(id!) ?? this.log.miners!.filter((c) => c.row?.id === id).at(-1)?.row ?? null;
      return { status: 200, statusText: '', json: async () => ({ code: 0, msg: 'success', data: { row } }) };
    }
    const collection = url.pathname.split('/').at(-1)!;
    const since = url.searchParams.get('since');
    const limit = Number(url.searchParams.get('limit'));
    const format = url.searchParams.get('format');
    const index = this.calls.length;
    this.calls.push({ collection, since, limit, format });
    const answer = (status: number, env: unknown) => ({ status, statusText: '', json: async () => env });
    const failure = this.failures.get(index);
    if (failure) return answer(failure.status, { code: failure.code, msg: failure.msg, data: failure.code === '401' ? '/login' : null });
    if (this.forbidden.has(collection)) return answer(403, { code: 403, msg: 'No permission', data: null });
    const from = since === null || this.reset ? 0 : Number(since);
    const all = this.log[collection]!.filter((c) => c.version > from);
    const part = all.slice(0, limit);
    const objects = part.flatMap((c) => (c.row ? [c.row] : []));
    // format=columns like the server: field names once, each row an array of values in that order.
    const columns = [...new Set(objects.flatMap((r) => Object.keys(r)))];
    const compact = format === 'columns' && !this.objectsOnly;
    const data = {
      ...(compact ? { columns } : {}),
      rows: compact ? objects.map((r) => columns.map((c) => (r as unknown as Record<string, unknown>)[c])) : objects,
      deleted: part.flatMap((c) => (c.deletedId ? [c.deletedId] : [])),
      cursor: part.length ? String(part.at(-1)!.version) : String(from),
      more: all.length > limit,
      ...(this.reset ? { reset: true } : {}),
    };
    this.reset = false;
    return answer(200, { code: 0, msg: 'success', data });
  });
}

const KEY = 'farm-a';
let db: HashfieldDb;
let feed: FakeFeed;

const minersOf = async (agentKey = KEY) => (await allMiners(agentKey)).sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));

function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
}

beforeEach(() => {
  resetConnectivityForTests();
  db = resetOfflineDbForTests();
  feed = new FakeFeed();
  vi.stubGlobal('fetch', feed.fetch);
  setOnline(true);
  performance.clearMeasures?.();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('syncCollection', () => {
  it('pages until more is false, storing each row with its farm and the cursor of the last page', async () => {
    for (let i = 1; i <= 12; i++) feed.miner(i);
    const result = await syncCollection(KEY, 'miners', { limit: 5 });
    expect(result).toEqual({ collection: 'miners', pages: 3, rows: 12, deleted: 0 });
    expect(feed.calls.map((c) => [c.since, c.limit])).toEqual([
      [null, 5],
      ['5', 5],
      ['10', 5],
    ]);
    const rows = await minersOf();
    expect(rows).toHaveLength(12);
    expect(rows[0]).toMatchObject({ agentKey: KEY, id: 'm-1', ip: '10.0.0.1' });
    const state = await db.syncState.get([KEY, 'miners']);
    expect(state).toMatchObject({ cursor: '12', error: null });
    expect(state?.syncedAt).toBeGreaterThan(Date.now() - 5000);
    expect(performance.getEntriesByName(SYNC_MEASURE_MINERS, 'measure')).toHaveLength(1);
  });

  it('asks for format=columns and stores each row as the same object the objects format gives', async () => {
    for (let i = 1; i <= 5; i++) feed.miner(i, i === 2 ? { customer: 'ACME', tempChipMax: null, statuses: ['offline'], faultLabels: ['fan'] } : {});
    feed.customer('c-1', 'ACME');
    await syncCollection(KEY, 'miners', { limit: 3 });
    await syncCollection(KEY, 'customers');
    expect(feed.calls.map((c) => c.format)).toEqual(['columns', 'columns', 'columns']);
    const expected = feed.log.miners!.map((c) => ({ ...c.row!, agentKey: KEY }));
    expect(await minersOf()).toEqual(expected);
    expect(await db.customers.toArray()).toEqual([{ id: 'c-1', name: 'ACME', version: '6', agentKey: KEY }]);

    // A server answering object rows (no `columns`) is stored the same way.
    db = resetOfflineDbForTests();
    feed.calls = [];
    feed.objectsOnly = true;
    await syncCollection(KEY, 'miners', { limit: 3 });
    expect(await minersOf()).toEqual(expected);
  });

  it('a cache of schema version 2 (one record per miner) upgrades: the old store is dropped, the miners sync again from the beginning', async () => {
    const name = `hashfield-upgrade-${Math.random().toString(36).slice(2)}`;
    const v2 = new Dexie(name);
    v2.version(2).stores({
      miners: '[agentKey+id], [agentKey+sn], [agentKey+ip]',
      customers: '[agentKey+id], [agentKey+name]',
      syncState: '[agentKey+collection]',
      outbox: 'id, state, [state+nextAttemptAt], agentKey, created',
      recentMiners: '[agentKey+minerId], [agentKey+openedAt]',
    });
    for (let i = 1; i <= 3; i++) feed.miner(i);
    feed.customer('c-1', 'Acme');
    await v2.table('miners').put({ ...feed.log.miners![0]!.row!, agentKey: KEY });
    await v2.table('syncState').bulkPut([
      { agentKey: KEY, collection: 'miners', cursor: '3', syncedAt: 1, error: null },
      { agentKey: KEY, collection: 'customers', cursor: '4', syncedAt: 1, error: null },
    ]);
    v2.close();
    db = resetOfflineDbForTests(name);
    await db.open();
    expect(db.tables.map((t) => t.name).sort()).toEqual(['customers', 'minerBuckets', 'minerIndex', 'outbox', 'recentMiners', 'syncState']);
    expect(await db.syncState.get([KEY, 'miners'])).toBeUndefined();
    expect((await db.syncState.get([KEY, 'customers']))?.cursor).toBe('4');
    await syncCollection(KEY, 'miners');
    expect(feed.calls[0]).toMatchObject({ collection: 'miners', since: null });
    expect((await minersOf()).map((m) => m.id)).toEqual(['m-1', 'm-2', 'm-3']);
    expect((await findMinerBySn(KEY, 'SN000000000000001'))?.id).toBe('m-1');
  });

  it('a second sync asks from the cursor and gets only what changed, tombstones included', async () => {
    for (let i = 1; i <= 6; i++) feed.miner(i);
    await syncCollection(KEY, 'miners', { limit: 4 });
    feed.calls = [];
    await syncCollection(KEY, 'miners', { limit: 4 });
    expect(feed.calls).toEqual([{ collection: 'miners', since: '6', limit: 4, format: 'columns' }]);
    expect(await minersOf()).toHaveLength(6);

    // The same ids in another farm's cache are not touched by farm A's tombstones.
    await putTestMiners([{ ...(await getMiner(KEY, 'm-2'))!, agentKey: 'farm-b' }]);
    feed.miner(3, { customer: 'ACME', marksVersion: '40' });
    feed.remove('miners', 'm-2');
    feed.remove('miners', 'm-5');
    feed.miner(7);
    const r = await syncCollection(KEY, 'miners', { limit: 2 });
    expect(r).toMatchObject({ pages: 2, rows: 2, deleted: 2 });
    const rows = await minersOf();
    expect(rows.map((m) => m.id)).toEqual(['m-1', 'm-3', 'm-4', 'm-6', 'm-7']);
    expect(rows.find((m) => m.id === 'm-3')).toMatchObject({ customer: 'ACME', marksVersion: '40', version: '7' });
    expect(await minersOf('farm-b')).toHaveLength(1);
    expect((await db.syncState.get([KEY, 'miners']))?.cursor).toBe('10');
  });

  it('reset drops the farm’s cached rows before writing the first page', async () => {
    for (let i = 1; i <= 3; i++) feed.miner(i);
    await syncCollection(KEY, 'miners');
    const m1 = (await getMiner(KEY, 'm-1'))!;
    await putTestMiners([
      { ...m1, id: 'gone-long-ago' },
      { ...m1, agentKey: 'farm-b' },
    ]);
    feed.reset = true;
    await syncCollection(KEY, 'miners');
    expect((await minersOf()).map((m) => m.id)).toEqual(['m-1', 'm-2', 'm-3']);
    expect(await minersOf('farm-b')).toHaveLength(1);
  });

  it('a failed page keeps the pages before it; the next run resumes from their cursor and clears the error', async () => {
    for (let i = 1; i <= 9; i++) feed.miner(i);
    for (let i = 1; i <= 2; i++) feed.customer(`c-${i}`, `Customer ${i}`);
    feed.failures.set(1, { status: 500, code: 500, msg: 'The server failed' });
    await syncNow(KEY);
    // Page 1 (5000 rows max, so all 9) landed; the customers call failed.
    expect(await minersOf()).toHaveLength(9);
    let state = await readSyncStatus(KEY);
    expect(state.error).toBe('The server failed');
    expect(state.lastSyncedAt).toBeNull();
    await syncNow(KEY);
    state = await readSyncStatus(KEY);
    expect(state.error).toBeNull();
    expect(state.lastSyncedAt).not.toBeNull();
    expect(state.minersCount).toBe(9);
    expect((await db.customers.toArray()).map((c) => c.name)).toEqual(['Customer 1', 'Customer 2']);
  });

  it('a failure in the middle of the paging keeps the written pages and their cursor', async () => {
    for (let i = 1; i <= 9; i++) feed.miner(i);
    feed.failures.set(1, { status: 500, code: 500, msg: 'The server failed' });
    await expect(syncCollection(KEY, 'miners', { limit: 4 })).rejects.toThrow('The server failed');
    expect(await minersOf()).toHaveLength(4);
    expect(await db.syncState.get([KEY, 'miners'])).toMatchObject({ cursor: '4', syncedAt: null });
    await syncCollection(KEY, 'miners', { limit: 4 });
    expect(feed.calls.at(-3)?.since).toBe('4');
    expect(await minersOf()).toHaveLength(9);
  });

  it('403 on a collection marks it forbidden: no error, and lastSyncedAt comes from the others', async () => {
    feed.miner(1);
    feed.forbidden.add('customers');
    await syncNow(KEY);
    const state = await readSyncStatus(KEY);
    expect(state).toMatchObject({ error: null, minersCount: 1 });
    expect(state.lastSyncedAt).not.toBeNull();
    expect((await db.syncState.get([KEY, 'customers']))?.forbidden).toBe(true);
  });
});

describe('sync loop', () => {
  it('offline: nothing is attempted and no error recorded', async () => {
    feed.miner(1);
    setOnline(false);
    await syncNow(KEY);
    expect(feed.calls).toHaveLength(0);
    expect(await readSyncStatus(KEY)).toEqual({ lastSyncedAt: null, error: null, minersCount: 0 });
  });

  it('a network failure is not recorded as an error', async () => {
    feed.miner(1);
    feed.fetch.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    await syncNow(KEY);
    expect((await readSyncStatus(KEY)).error).toBeNull();
  });

  it('server unreachable (navigator online): nothing is attempted; its answering again starts a run at once', async () => {
    feed.miner(1);
    const stop = startSyncLoop(KEY, { intervalMs: 60_000 });
    await vi.waitFor(async () => expect((await readSyncStatus(KEY)).minersCount).toBe(1));
    await vi.waitFor(() => expect(feed.calls.length).toBe(2));
    reportNetworkFailure(); // e.g. the outbox's request got no answer
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    await syncNow(KEY);
    expect(feed.calls.length).toBe(2);
    feed.miner(2);
    reportServerAnswer(); // e.g. the probe got one
    await vi.waitFor(async () => expect((await readSyncStatus(KEY)).minersCount).toBe(2));
    expect(feed.calls.length).toBe(4);
    stop();
  });

  it('never runs twice at once: a request during a run queues one more run after it', async () => {
    feed.miner(1);
    const a = syncNow(KEY);
    expect(syncNow(KEY)).toBe(a); // not started yet: joins
    await a;
    expect(feed.calls.map((c) => c.collection)).toEqual(['miners', 'customers']);

    let release = () => undefined as void;
    feed.gate = new Promise<void>((r) => {
      release = r;
    });
    const running = syncNow(KEY);
    // The run is in progress (its first request is waiting).
    await vi.waitFor(() => expect(feed.fetch.mock.calls.length).toBe(3));
    const next = syncNow(KEY);
    const other = syncNow('farm-b');
    expect(next).not.toBe(running);
    expect(syncNow(KEY)).toBe(next);
    await new Promise((r) => setTimeout(r, 30));
    expect(feed.fetch.mock.calls.length).toBe(3); // nothing runs beside it
    feed.gate = null;
    release();
    await Promise.all([running, next, other]);
    expect(feed.calls.map((c) => c.collection)).toHaveLength(8);
  });

  it('syncs on start, on online, on becoming visible, on the timer; 401 stops it quietly', async () => {
    feed.miner(1);
    const runs = () => feed.calls.filter((c) => c.collection === 'miners').length;
    const stop = startSyncLoop(KEY, { intervalMs: 60_000 });
    await vi.waitFor(() => expect(feed.calls.length).toBe(2));
    await vi.waitFor(async () => expect((await readSyncStatus(KEY)).lastSyncedAt).not.toBeNull());
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(runs()).toBe(2));
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(runs()).toBe(3));
    // Hidden: becoming "visible" is not what happened, nothing runs.
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 30));
    expect(runs()).toBe(3);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    // 401: the loop stops, nothing recorded, no redirect.
    const onUnauthorized = vi.fn();
    configureApiClient({ onUnauthorized });
    feed.failures.set(feed.calls.length, { status: 401, code: '401', msg: 'Please log in' });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(runs()).toBe(4));
    await new Promise((r) => setTimeout(r, 20));
    const n = feed.calls.length;
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 50));
    expect(feed.calls.length).toBe(n);
    expect((await readSyncStatus(KEY)).error).toBeNull();
    expect(onUnauthorized).not.toHaveBeenCalled();
    stop();

    // The timer while visible; stop() ends it.
    const stopTimer = startSyncLoop(KEY, { intervalMs: 40 });
    await vi.waitFor(() => expect(runs()).toBeGreaterThanOrEqual(7));
    stopTimer();
    // A run the timer started before stop() finishes its collections (slow under load): wait until it is done.
    await vi.waitFor(async () => {
      const before = feed.calls.length;
      await new Promise((r) => setTimeout(r, 60));
      expect(feed.calls.length).toBe(before);
    });
    const m = feed.calls.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(feed.calls.length).toBe(m);
  });
});

describe('useSyncStatus', () => {
  it('shows the run in progress, then the last sync, the cached count and the last error', async () => {
    for (let i = 1; i <= 3; i++) feed.miner(i);
    const { result } = renderHook(() => useSyncStatus(KEY));
    expect(result.current).toEqual({ syncing: false, lastSyncedAt: null, error: null, minersCount: 0 });
    let release = () => undefined as void;
    feed.gate = new Promise<void>((r) => {
      release = r;
    });
    let run: Promise<void> = Promise.resolve();
    act(() => {
      run = syncNow(KEY);
    });
    await waitFor(() => expect(result.current.syncing).toBe(true));
    feed.gate = null;
    release();
    await act(() => run);
    await waitFor(() => expect(result.current.minersCount).toBe(3));
    await waitFor(() => expect(result.current.lastSyncedAt).not.toBeNull());
    expect(result.current.syncing).toBe(false);
    expect(result.current.error).toBeNull();
    feed.failures.set(feed.calls.length, { status: 500, code: 500, msg: 'The server failed' });
    await act(() => syncNow(KEY));
    await waitFor(() => expect(result.current.error).toBe('The server failed'));
    // Another farm's status is its own.
    const other = renderHook(() => useSyncStatus('farm-b'));
    await waitFor(() => expect(other.result.current).toEqual({ syncing: false, lastSyncedAt: null, error: null, minersCount: 0 }));
  });
});

describe('the caches belong to one user', () => {
  beforeEach(() => localStorage.removeItem(CACHE_OWNER_KEY));

  async function fill(): Promise<void> {
    for (let i = 1; i <= 3; i++) feed.miner(i);
    feed.customer('c-1', 'Acme');
    await syncNow(KEY);
    await db.recentMiners.put({ agentKey: KEY, minerId: 'm-1', openedAt: 1 });
    await db.outbox.add({ id: 'o-1', kind: 'miner.note', method: 'POST', url: '/api/miner/notes', body: {}, agentKey: KEY, userId: 'u-a', label: 'Note', created: 1, attempts: 0, state: 'pending', nextAttemptAt: 0, lastError: null });
  }

  it('logout drops the farms’ data (miners, customers, cursors, recent miners) but keeps the outbox', async () => {
    await claimOfflineCaches('u-a');
    await fill();
    expect(await minersOf()).toHaveLength(3);
    await forgetOfflineCaches();
    expect(await minersOf()).toEqual([]);
    expect(await readSyncStatus(KEY)).toMatchObject({ minersCount: 0, lastSyncedAt: null });
    expect(await db.customers.count()).toBe(0);
    expect(await db.syncState.count()).toBe(0);
    expect(await db.recentMiners.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
    expect(localStorage.getItem(CACHE_OWNER_KEY)).toBeNull();
  });

  it('a session of another user than the owner (the logout missed) starts the caches afresh; the same user keeps them', async () => {
    await claimOfflineCaches('u-a');
    await fill();
    await claimOfflineCaches('u-a');
    expect(await minersOf()).toHaveLength(3);

    feed.calls = [];
    const stop = startSyncLoop(KEY, { userId: 'u-b', intervalMs: 3_600_000 });
    await vi.waitFor(async () => {
      expect(feed.calls).toHaveLength(2);
      expect((await db.syncState.get([KEY, 'customers']))?.syncedAt).toBeTruthy();
    });
    stop();
    // B's first sync started from the beginning, with nothing of A's left in between.
    expect(feed.calls.map((c) => [c.collection, c.since])).toEqual([
      ['miners', null],
      ['customers', null],
    ]);
    expect(await minersOf()).toHaveLength(3);
    expect(await db.recentMiners.count()).toBe(0);
    expect(localStorage.getItem(CACHE_OWNER_KEY)).toBe('u-b');
  });

  it('an open card refreshes its miner from the server: fresher readings land in the cache; offline, after a logout or for no such miner nothing is written', async () => {
    await claimOfflineCaches('u-a');
    await fill();
    const cached = (await getMiner(KEY, 'm-2'))!;
    feed.now.set('m-2', { ...cached, gHS5s: cached.gHS5s! + 1234, takenAt: '2026-11-24T10:05:00.000Z' });
    expect(await refreshCachedMiner(KEY, 'm-2')).toBe(true);
    expect(await getMiner(KEY, 'm-2')).toMatchObject({ agentKey: KEY, gHS5s: cached.gHS5s! + 1234, takenAt: '2026-11-24T10:05:00.000Z' });
    expect(await minersOf()).toHaveLength(3);
    expect(feed.calls.at(-1)!.collection).toBe('miners/row');

    expect(await refreshCachedMiner(KEY, 'm-404')).toBe(false);
    expect(await minersOf()).toHaveLength(3);

    setOnline(false);
    const calls = feed.calls.length;
    expect(await refreshCachedMiner(KEY, 'm-1')).toBe(false);
    expect(feed.calls).toHaveLength(calls);
    setOnline(true);

    // A logout while the row is on its way: it does not land in the emptied cache.
    let open!: () => void;
    feed.gate = new Promise((r) => (open = r));
    const fetched = feed.fetch.mock.calls.length;
    const refreshing = refreshCachedMiner(KEY, 'm-1');
    await vi.waitFor(() => expect(feed.fetch.mock.calls.length).toBeGreaterThan(fetched));
    await forgetOfflineCaches();
    open();
    feed.gate = null;
    expect(await refreshing).toBe(false);
    expect(await minersOf()).toEqual([]);
  });

  it('a logout during a sync run waits for it: no page of the run lands after the clear', async () => {
    for (let i = 1; i <= 6; i++) feed.miner(i);
    let open!: () => void;
    feed.gate = new Promise((r) => (open = r));
    const run = syncNow(KEY);
    const forgotten = forgetOfflineCaches();
    // The run's first request is out (held by the gate) when the logout asks.
    await vi.waitFor(() => expect(feed.fetch).toHaveBeenCalled());
    open();
    feed.gate = null;
    await Promise.all([run, forgotten]);
    expect(feed.calls.length).toBeGreaterThan(1);
    expect(await minersOf()).toEqual([]);
    expect(await db.syncState.count()).toBe(0);
  });
});

