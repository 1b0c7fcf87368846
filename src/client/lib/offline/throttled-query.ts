/**
 * A live query of one IndexedDB table that a burst of writes does not re-run once per write.
 *
 * Dexie's liveQuery runs its query again after every transaction that touches what the query read. The outbox's
 * counts, its list and a miner's pending changes read every entry of the outbox (the user's own, by author, is not
 * an index), and the replayer writes twice per entry it sends (the entry goes to 'sending', then is deleted): while
 * 1,000 entries drained, the header's counter alone read the outbox ~2,000 times, ~500,000 records, and took two
 * thirds of the replay's time (tests/bench/outbox-replay.bench.ts: 29.7 s against 9.9 s without it).
 *
 * Here the query runs at once when nothing has changed for `intervalMs`, then at most once per `intervalMs` while the
 * table keeps changing, and always once more after the last change (a change during a run runs it again), so the
 * value shown is never older than `intervalMs` plus one run. Changes are Dexie's `storagemutated` notices: every
 * connection of this page (the outbox's strict one too) and, through Dexie's BroadcastChannel, the other tabs.
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { type DependencyList, useEffect, useState } from 'react';

/** How often at most a throttled query runs while its table changes (the outbox's counters move 4 times a second). */
export const THROTTLED_QUERY_MS = 250;

/**
 * Calls `run` when `table` of database `dbName` changes, throttled as described above; `run` is also called at start.
 * Returns the unsubscribe function. Exported for tests (the hook below uses it).
 */
export function watchTable(dbName: string, table: string, run: () => Promise<void>, intervalMs = THROTTLED_QUERY_MS): () => void {
  const prefix = `idb://${dbName}/${table}/`;
  let stopped = false;
  let running = false;
  let dirty = false;
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const start = async (): Promise<void> => {
    running = true;
    dirty = false;
    last = Date.now();
    try {
      await run();
    } catch (err) {
      console.error('throttled query failed', err);
    } finally {
      running = false;
      if (dirty && !stopped) schedule();
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    if (running) {
      dirty = true;
      return;
    }
    if (timer !== null) return;
    timer = setTimeout(
      () => {
        timer = null;
        if (!stopped) void start();
      },
      Math.max(0, last + intervalMs - Date.now()),
    );
  };
  const onMutated = (parts: ObservabilitySet): void => {
    for (const part in parts) {
      if (part.startsWith(prefix)) {
        schedule();
        return;
      }
    }
  };
  Dexie.on.storagemutated.subscribe(onMutated);
  void start();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    Dexie.on.storagemutated.unsubscribe(onMutated);
  };
}

/**
 * The value of `query` over `table` (of the database `db()` names), kept current as described above; `initial` until
 * its first run answers. `deps` as for useEffect: a change runs the query again at once.
 */
export function useThrottledQuery<T>(db: () => Dexie, table: string, query: () => Promise<T>, deps: DependencyList, initial: T): T {
  const [value, setValue] = useState<{ deps: DependencyList; v: T } | null>(null);
  useEffect(() => {
    let alive = true;
    const stop = watchTable(db().name, table, async () => {
      const v = await query();
      if (alive) setValue({ deps, v });
    });
    return () => {
      alive = false;
      stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps, as useLiveQuery takes them
  }, deps);
  // A value read for other deps (another user, another miner) is not shown for these: `initial` until they answer.
  return value !== null && sameDeps(value.deps, deps) ? value.v : initial;
}

function sameDeps(a: DependencyList, b: DependencyList): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}
