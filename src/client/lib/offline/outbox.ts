/**
 * The durable outbox (issue 5, offline-first-notes.md "Goals" 1–5): every offline write is an OutboxEntry in
 * Dexie, written with strict durability, whose id (UUIDv7) is sent as Idempotency-Key. The replayer sends
 * entries one at a time in creation order:
 * - 2xx with an envelope code 0 → the entry is deleted (the kind's `onApplied` hook runs first);
 * - network failure, 5xx, 408/429, 409 "same request still running" → failed, retried after 5 s, 15 s, 60 s,
 *   then every 5 min (±20 % jitter); the queue waits for it (order is kept);
 * - any other 4xx (400, 403, 404, 409, 422 …) → dead, with the server's message and data, until the user
 *   retries, edits or discards it;
 * - 401 → the whole queue pauses (the entry stays pending), `paused` is announced, and `resumeOutbox()`
 *   (after a login) continues with nothing lost.
 * Only the logged-in user's entries are sent, counted and listed (outbox-user.ts): each entry carries its author.
 * Triggers: start, a change of the logged-in user, `online`, `visibilitychange` (visible), the backoff timer, the
 * service worker's `sync` event relayed as a message (sw.ts; optional, the rest works without SyncManager), each enqueue, and the server
 * answering again after being unreachable (connectivity.ts, to which each send reports whether our server answered).
 * An entry left 'sending' by a closed page goes back to pending at start: the idempotency key makes the
 * resend safe. A dead entry is retried or edited under a NEW key (the server stored its 4xx answer under the
 * old one; a 4xx means nothing was applied); a failed one keeps its key (it may have been applied).
 */
import Dexie from 'dexie';
import { type DependencyList, useSyncExternalStore } from 'react';
import { declareOfflineSchema } from './collections';
import { reportNetworkFailure, reportServerAnswer, subscribeServerReachable } from './connectivity';
import { type OutboxEntry, type OutboxError, offlineDb } from './db';
import { isOwnEntry, outboxUser, subscribeOutboxUser, useOutboxUser } from './outbox-user';
import { useThrottledQuery } from './throttled-query';
import { uuid7 } from './uuid7';

/** Background Sync tag registered by the page and handled by sw.ts. */
export const OUTBOX_SYNC_TAG = 'hf-outbox';
/** Message the service worker posts to its clients on a `sync` event. */
export const OUTBOX_REPLAY_MESSAGE = 'HF_OUTBOX_REPLAY';
/** Delay before the n-th retry (n = attempts so far, 1-based); the last one repeats. */
export const OUTBOX_BACKOFF_MS = [5_000, 15_000, 60_000, 300_000] as const;
const REQUEST_TIMEOUT_MS = 30_000;
const LOCK_NAME = 'hf-outbox';

export interface EnqueueInput {
  kind: string;
  method?: OutboxEntry['method'];
  url: string;
  body: unknown;
  agentKey: string;
  label: string;
}

export type OutboxEvent =
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'applied'; entry: OutboxEntry; data: unknown }
  | { type: 'dead'; entry: OutboxEntry };

/** Per-kind behaviour a feature registers (optional): runs when the server applied an entry of that kind. */
export interface OutboxKindHandler {
  onApplied?: (entry: OutboxEntry, data: unknown) => Promise<void> | void;
}

export interface OutboxOptions {
  /** Language of the server's messages (I18N header). */
  locale?: () => string;
  /** Tests: clock and jitter. */
  now?: () => number;
  random?: () => number;
}

const config: Required<OutboxOptions> = {
  locale: () => (typeof document !== 'undefined' && document.documentElement.lang) || 'zh-CN',
  now: () => Date.now(),
  random: () => Math.random(),
};

const handlers = new Map<string, OutboxKindHandler>();
const listeners = new Set<(event: OutboxEvent) => void>();
const pauseListeners = new Set<() => void>();
let paused = false;
let running: Promise<void> | null = null;
let again = false;
let force = false;
let timer: ReturnType<typeof setTimeout> | null = null;
let started = 0;
let stopper: (() => void) | null = null;
/** The start-up work (recovery, then a first replay): tests wait for it before they close the database. */
let startup: Promise<void> | null = null;
let lastCreated = 0;

/** Retry delay after `attempts` failed attempts, jittered ±20 %. */
export function backoffDelay(attempts: number, random: () => number = Math.random): number {
  const i = Math.min(Math.max(attempts, 1), OUTBOX_BACKOFF_MS.length) - 1;
  return Math.round(OUTBOX_BACKOFF_MS[i]! * (0.8 + 0.4 * random()));
}

export function registerOutboxKind(kind: string, handler: OutboxKindHandler): void {
  handlers.set(kind, handler);
}

export function subscribeOutbox(listener: (event: OutboxEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: OutboxEvent): void {
  for (const l of listeners) {
    try {
      l(event);
    } catch (err) {
      console.error('outbox listener failed', err);
    }
  }
}

function setPaused(value: boolean): void {
  if (paused === value) return;
  paused = value;
  for (const l of pauseListeners) l();
  emit({ type: value ? 'paused' : 'resumed' });
}

export function isOutboxPaused(): boolean {
  return paused;
}

/** True while a 401 holds the queue ("Session expired — log in again"). */
export function useOutboxPaused(): boolean {
  return useSyncExternalStore(
    (cb) => {
      pauseListeners.add(cb);
      return () => pauseListeners.delete(cb);
    },
    () => paused,
    () => false,
  );
}

// --- strict-durability writes -------------------------------------------------------------------------------

const strictDbs = new Map<string, Dexie>();

/**
 * A second connection to the same database whose transactions are `durability: 'strict'` (Chromium flushes
 * to disk before reporting success). Dexie takes durability per connection, and the shared connection stays
 * on the default so bulk cache refreshes keep their speed. Live queries see these writes (same db name).
 */
function strictDb(): Dexie {
  const name = offlineDb().name;
  let db = strictDbs.get(name);
  if (!db) {
    db = new Dexie(name, { chromeTransactionDurability: 'strict' });
    declareOfflineSchema(db);
    strictDbs.set(name, db);
  }
  return db;
}

async function strictWrite(fn: (table: Dexie.Table<OutboxEntry, string>) => Promise<unknown>): Promise<void> {
  const db = strictDb();
  const table = db.table<OutboxEntry, string>('outbox');
  await db.transaction('rw', table, () => fn(table));
}

function nextCreated(): number {
  const now = config.now();
  lastCreated = now > lastCreated ? now : lastCreated + 0.001;
  return lastCreated;
}

/** Stores a write durably and kicks the replayer. Resolves once the entry is on disk. */
export async function enqueue(input: EnqueueInput): Promise<OutboxEntry> {
  const author = outboxUser();
  const entry: OutboxEntry = {
    id: uuid7(),
    kind: input.kind,
    method: input.method ?? 'POST',
    url: input.url,
    body: input.body,
    agentKey: input.agentKey,
    ...(author !== null ? { userId: author } : {}),
    label: input.label,
    created: nextCreated(),
    attempts: 0,
    state: 'pending',
    nextAttemptAt: 0,
    lastError: null,
  };
  await strictWrite((t) => t.add(entry));
  void replayOutbox();
  // A wake-up call for browsers with Background Sync (the page's own triggers do not depend on it).
  void requestBackgroundSync();
  return entry;
}

// --- user actions on entries ---------------------------------------------------------------------------------

async function requeue(id: string, body?: unknown): Promise<void> {
  await strictWrite(async (t) => {
    const e = await t.get(id);
    if (!e) return;
    const fresh = { ...e, state: 'pending' as const, nextAttemptAt: 0, attempts: 0, lastError: null, ...(body === undefined ? {} : { body }) };
    if (e.state === 'dead') {
      // The server answered a 4xx under the old key (stored for that key): send the change under a new one.
      await t.delete(id);
      await t.add({ ...fresh, id: uuid7() });
    } else {
      await t.put(fresh);
    }
  });
  void replayOutbox({ force: true });
}

/** Sends a dead or failed entry again now. */
export function retry(id: string): Promise<void> {
  return requeue(id);
}

/** Replaces the body of a dead entry (e.g. a customer change after a 409: new customer / baseVersion) and sends it. */
export function edit(id: string, body: unknown): Promise<void> {
  return requeue(id, body);
}

/** Drops an entry for good (the user's decision). */
export async function discard(id: string): Promise<void> {
  await strictWrite((t) => t.delete(id));
}

// --- replay ------------------------------------------------------------------------------------------------------

interface Envelope {
  code: number | string;
  msg: string;
  data: unknown;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && 'code' in v) return v as Envelope;
  } catch {
    // not JSON
  }
  return null;
}

type Outcome = { kind: 'applied'; data: unknown } | { kind: 'retry'; error: OutboxError } | { kind: 'dead'; error: OutboxError } | { kind: 'unauthorized' };

async function send(entry: OutboxEntry): Promise<Outcome> {
  const startedAt = Date.now();
  let res: Response;
  try {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'Idempotency-Key': entry.id,
      I18N: config.locale(),
      agentKey: entry.agentKey,
    };
    const init: RequestInit = { method: entry.method, credentials: 'include', headers, body: JSON.stringify(entry.body ?? null) };
    if (typeof AbortSignal !== 'undefined' && 'timeout' in AbortSignal) init.signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    res = await fetch(entry.url, init);
  } catch (err) {
    reportNetworkFailure(startedAt);
    return { kind: 'retry', error: { status: 0, message: err instanceof Error ? err.message : String(err) } };
  }
  const env = parseEnvelope(await res.text().catch(() => ''));
  // Only our server answers with the envelope (a proxy's 502 page or a captive portal does not).
  if (env) reportServerAnswer();
  else reportNetworkFailure(startedAt);
  const error: OutboxError = {
    status: res.status,
    ...(env ? { code: String(env.code) } : {}),
    message: env?.msg || res.statusText || `HTTP ${res.status}`,
    ...(env && env.data !== null && env.data !== undefined ? { data: env.data } : {}),
  };
  if (res.status === 401 || env?.code === '401') return { kind: 'unauthorized' };
  if (res.ok) return env && (env.code === 0 || env.code === '0') ? { kind: 'applied', data: env.data } : { kind: 'retry', error };
  // 409 4091 = the same key is still running elsewhere (another tab): try again shortly.
  if (res.status >= 500 || res.status === 408 || res.status === 429 || (res.status === 409 && error.code === '4091')) return { kind: 'retry', error };
  return { kind: 'dead', error };
}

/** Due entries (pending, or failed whose backoff elapsed) in creation order; stops at the first failed one not yet due. */
async function dueEntries(): Promise<OutboxEntry[]> {
  const user = outboxUser();
  const rows = (await offlineDb().outbox.where('state').anyOf('pending', 'failed').toArray()).filter((e) => isOwnEntry(e, user));
  rows.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  const now = config.now();
  const out: OutboxEntry[] = [];
  for (const e of rows) {
    if (e.state === 'failed' && e.nextAttemptAt > now && !force) break;
    out.push(e);
  }
  return out;
}

/** One pass: returns false when it had to stop (failure, pause). */
async function drainOnce(): Promise<boolean> {
  const db = offlineDb();
  for (;;) {
    if (paused) return false;
    const batch = await dueEntries();
    force = false;
    if (batch.length === 0) return true;
    for (const entry of batch) {
      if (paused) return false;
      // Skip entries discarded or edited meanwhile. Attempts are counted before sending: an entry that ever
      // left may be stored by the server under its key, so its body must not change any more (see rebasing in
      // miner-writes.ts), even when the page dies mid-request.
      const current = await db.transaction('rw', db.outbox, async () => {
        const row = await db.outbox.get(entry.id);
        // Also skipped: an entry of a user who logged out since the batch was read (it waits for them).
        if (!row || (row.state !== 'pending' && row.state !== 'failed') || !isOwnEntry(row)) return null;
        await db.outbox.update(entry.id, { state: 'sending', attempts: row.attempts + 1 });
        return row;
      });
      if (!current) continue;
      const attempts = current.attempts + 1;
      const outcome = await send(current);
      if (outcome.kind === 'applied') {
        try {
          await handlers.get(current.kind)?.onApplied?.(current, outcome.data);
        } catch (err) {
          console.error('outbox: onApplied failed', err);
        }
        await db.outbox.delete(current.id);
        emit({ type: 'applied', entry: current, data: outcome.data });
        continue;
      }
      if (outcome.kind === 'unauthorized') {
        // Refused before anything ran (auth comes before the idempotency store): as if never sent.
        await db.outbox.update(current.id, { state: 'pending', attempts: current.attempts });
        setPaused(true);
        return false;
      }
      if (outcome.kind === 'dead') {
        const dead = { ...current, state: 'dead' as const, attempts, lastError: outcome.error };
        await db.outbox.put(dead);
        emit({ type: 'dead', entry: dead });
        continue;
      }
      await db.outbox.update(current.id, { state: 'failed', attempts, lastError: outcome.error, nextAttemptAt: config.now() + backoffDelay(attempts, config.random) });
      return false;
    }
  }
}

async function withLock(fn: () => Promise<unknown>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (locks?.request) {
    await locks.request(LOCK_NAME, async () => {
      await fn();
    });
  } else {
    await fn();
  }
}

async function schedule(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!started || paused) return;
  const failed = await offlineDb().outbox.where('state').equals('failed').toArray();
  if (failed.length === 0) return;
  const next = Math.min(...failed.map((e) => e.nextAttemptAt));
  timer = setTimeout(() => void replayOutbox(), Math.max(250, next - config.now()));
}

/**
 * Sends what is due now (single flight per page; one page at a time through the Web Locks API where present).
 * `force` ignores the backoff of failed entries (Sync now, Retry).
 */
export function replayOutbox(opts: { force?: boolean } = {}): Promise<void> {
  if (opts.force) force = true;
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        await withLock(drainOnce);
      } while (again && !paused);
    } catch (err) {
      console.error('outbox: replay failed', err);
    } finally {
      running = null;
      await schedule().catch(() => undefined);
    }
  })();
  return running;
}

/** After a login: lift the 401 pause and send what waits. */
export function resumeOutbox(): void {
  if (!paused) return;
  setPaused(false);
  void replayOutbox({ force: true });
}

/** Entries a closed page left 'sending' go back to pending (the idempotency key makes the resend safe). */
export async function recoverSending(): Promise<number> {
  return offlineDb().outbox.where('state').equals('sending').modify({ state: 'pending' });
}

/** Starts the replay triggers; returns stop. Idempotent per page (nested starts share one set of triggers). */
export function startOutbox(options: OutboxOptions = {}): () => void {
  Object.assign(config, options);
  started += 1;
  if (started > 1) return stopOnce();
  // Each trigger means "conditions may have changed": it does not wait for the backoff of a failed entry.
  const kick = () => void replayOutbox({ force: true });
  const onVisible = () => {
    if (document.visibilityState === 'visible') kick();
  };
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: string } | null;
    if (data?.type === OUTBOX_REPLAY_MESSAGE) kick();
  };
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', onVisible);
  navigator.serviceWorker?.addEventListener('message', onMessage);
  // The server answering again after a spell of "unreachable" while navigator.onLine stayed true (connectivity.ts).
  const unsubscribeReachable = subscribeServerReachable(kick);
  // Another user logged in (or the first one became known): their waiting changes can go now.
  const unsubscribeUser = subscribeOutboxUser(kick);
  startup = recoverSending()
    .catch((err: unknown) => console.error('outbox: recovery failed', err))
    .then(() => replayOutbox({ force: true }));
  const stop = () => {
    window.removeEventListener('online', kick);
    document.removeEventListener('visibilitychange', onVisible);
    navigator.serviceWorker?.removeEventListener('message', onMessage);
    unsubscribeReachable();
    unsubscribeUser();
    if (timer) clearTimeout(timer);
    timer = null;
  };
  stopper = stop;
  return stopOnce();
}

function stopOnce(): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    started -= 1;
    if (started === 0) stopper?.();
  };
}

/**
 * Asks the service worker for a Background Sync (`hf-outbox`) so a closed page's queue is replayed by
 * the next page the browser wakes. Optional: nothing depends on it (no SyncManager on Safari / Firefox).
 */
export async function requestBackgroundSync(): Promise<boolean> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !navigator.serviceWorker.controller) return false;
    const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
    if (!reg.sync) return false;
    await reg.sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}

// --- hooks -------------------------------------------------------------------------------------------------------

export interface OutboxCounts {
  pending: number;
  failed: number;
  dead: number;
}

const ZERO: OutboxCounts = { pending: 0, failed: 0, dead: 0 };

/** A live query of the outbox, re-read at most 4 times a second while it changes (throttled-query.ts). */
function useOutboxQuery<T>(query: () => Promise<T>, deps: DependencyList, initial: T): T {
  return useThrottledQuery(offlineDb, 'outbox', query, deps, initial);
}

/** The current user's entries by state (outbox-user.ts): what they can send, retry, edit or discard. */
export async function outboxCounts(user: string | null = outboxUser()): Promise<OutboxCounts> {
  const counts = { ...ZERO };
  await offlineDb().outbox.each((e) => {
    if (!isOwnEntry(e, user)) return;
    if (e.state === 'dead') counts.dead++;
    else if (e.state === 'failed') counts.failed++;
    else counts.pending++;
  });
  return counts;
}

/** Live counts of the current user's entries: pending (incl. sending), failed (waiting for a retry), dead (needs the user). */
export function useOutboxCounts(): OutboxCounts {
  const user = useOutboxUser();
  return useOutboxQuery(() => outboxCounts(user), [user], ZERO);
}

export interface OutboxView {
  /** The current user's entries not yet applied (pending, sending, failed, dead), oldest first. */
  entries: OutboxEntry[];
  /** Changes other users made on this device, waiting for them to log in here again (not shown, not sent). */
  others: number;
}

/** What the outbox views list, from one read of the outbox; undefined while loading. */
export function useOutboxView(): OutboxView | undefined {
  const user = useOutboxUser();
  return useOutboxQuery<OutboxView | undefined>(
    async () => {
      const view: OutboxView = { entries: [], others: 0 };
      for (const e of await offlineDb().outbox.orderBy('created').toArray()) {
        if (isOwnEntry(e, user)) view.entries.push(e);
        else view.others++;
      }
      return view;
    },
    [user],
    undefined,
  );
}

/** The current user's not-yet-applied entries of one miner (body.ip), oldest first, for the card's optimistic display. */
export function usePendingForMiner(agentKey: string, ip: string): OutboxEntry[] {
  const user = useOutboxUser();
  return useOutboxQuery(
    async () => {
      const rows = await offlineDb().outbox.where('agentKey').equals(agentKey).toArray();
      return rows.filter((e) => isOwnEntry(e, user) && (e.body as { ip?: unknown } | null)?.ip === ip).sort((a, b) => a.created - b.created);
    },
    [agentKey, ip, user],
    [],
  );
}

/** Pending writes hold a service-worker update (sw-update.ts). Dead letters do not: they survive a reload. */
export async function outboxHoldsUpdate(): Promise<boolean> {
  const c = await outboxCounts();
  return c.pending + c.failed > 0;
}

/** Tests: waits for the start-up work of startOutbox (a test's database must not be closed under it). */
export async function settleOutboxForTests(): Promise<void> {
  await startup?.catch(() => undefined);
}

/** Tests: forget the page-level state. */
export function resetOutboxForTests(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  paused = false;
  running = null;
  again = false;
  force = false;
  started = 0;
  stopper = null;
  startup = null;
  lastCreated = 0;
  handlers.clear();
  listeners.clear();
  for (const db of strictDbs.values()) db.close();
  strictDbs.clear();
}
