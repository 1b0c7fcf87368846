/**
 * Durable storage for the offline caches (offline-first-notes.md goal 8):
 *
 * - `requestPersistence(): Promise<boolean | null>` — asks `navigator.storage.persist()` once per browser
 *   (after login); the answer is remembered in localStorage (`hf.storagePersist` = 'granted' | 'denied') so the
 *   browser is not asked again. Resolves true/false, or null when the browser has no StorageManager.
 * - `useStorageEstimate(): StorageEstimateInfo` — `{ usage, quota, persisted, warn }`: bytes used and allowed
 *   for this origin (`navigator.storage.estimate()`), whether the storage is persistent
 *   (`navigator.storage.persisted()`), and `warn` = usage / quota > 0.8. A field whose API is absent is null
 *   (warn is then false). Refreshed when the page becomes visible and every 30 s while mounted.
 */
import { useEffect, useState } from 'react';
import { readStorage, writeStorage } from '@client/lib/safe-storage';

export const PERSIST_ANSWER_KEY = 'hf.storagePersist';
export const STORAGE_WARN_RATIO = 0.8;
const REFRESH_MS = 30_000;

export interface StorageEstimateInfo {
  /** Bytes used by this origin; null when estimate() is unavailable. */
  usage: number | null;
  /** Bytes this origin may use; null when estimate() is unavailable. */
  quota: number | null;
  /** Storage is persistent (not evicted under pressure); null when persisted() is unavailable. */
  persisted: boolean | null;
  /** usage / quota > 0.8. */
  warn: boolean;
}

function storageManager(): StorageManager | null {
  return typeof navigator !== 'undefined' && navigator.storage ? navigator.storage : null;
}

let asking: Promise<boolean | null> | null = null;

/** Asks for persistent storage once (the browser may decide silently); later calls answer from memory. */
export function requestPersistence(): Promise<boolean | null> {
  asking ??= (async () => {
    const sm = storageManager();
    if (!sm || typeof sm.persist !== 'function') return null;
    const remembered = readStorage('local', PERSIST_ANSWER_KEY);
    try {
      if (typeof sm.persisted === 'function' && (await sm.persisted())) {
        writeStorage('local', PERSIST_ANSWER_KEY, 'granted');
        return true;
      }
      // Asked before and refused: do not ask again (only the answer is re-read).
      if (remembered === 'denied') return false;
      const granted = await sm.persist();
      writeStorage('local', PERSIST_ANSWER_KEY, granted ? 'granted' : 'denied');
      return granted;
    } catch {
      return null;
    }
  })();
  return asking;
}

/** Tests: forget the in-memory answer. */
export function resetPersistenceForTests(): void {
  asking = null;
}

export async function readStorageEstimate(): Promise<StorageEstimateInfo> {
  const sm = storageManager();
  let usage: number | null = null;
  let quota: number | null = null;
  let persisted: boolean | null = null;
  if (sm && typeof sm.estimate === 'function') {
    try {
      const e = await sm.estimate();
      usage = typeof e.usage === 'number' ? e.usage : null;
      quota = typeof e.quota === 'number' ? e.quota : null;
    } catch {
      /* unavailable (e.g. some private modes) */
    }
  }
  if (sm && typeof sm.persisted === 'function') {
    try {
      persisted = await sm.persisted();
    } catch {
      persisted = null;
    }
  }
  const warn = usage !== null && quota !== null && quota > 0 && usage / quota > STORAGE_WARN_RATIO;
  return { usage, quota, persisted, warn };
}

const UNKNOWN: StorageEstimateInfo = { usage: null, quota: null, persisted: null, warn: false };

export function useStorageEstimate(): StorageEstimateInfo {
  const [info, setInfo] = useState<StorageEstimateInfo>(UNKNOWN);
  useEffect(() => {
    let alive = true;
    const refresh = () => {
      void readStorageEstimate().then((next) => {
        if (alive) setInfo((prev) => (prev.usage === next.usage && prev.quota === next.quota && prev.persisted === next.persisted ? prev : next));
      });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      alive = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return info;
}
