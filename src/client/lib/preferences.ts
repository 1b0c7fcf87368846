/**
 * Per-user local preferences (spec 1 §3: "stored under a key made of the user id and a name").
 *
 * Key: `hf:pref:<id>:<user>:<name>`, or `hf:pref:anon:<name>` while no user is set.
 * Values are JSON. Corrupt values read as the fallback. When localStorage is unavailable or
 * full, values live in memory for the session. Changes notify every usePreference() in this tab
 * and, through the `storage` event, in other tabs.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

export interface PreferenceOwner {
  id: string | number;
  user: string;
}

export const PREFERENCE_PREFIX = 'hf:pref:';

let owner: PreferenceOwner | null = null;
const memory = new Map<string, string>();
const listeners = new Set<() => void>();
const parsed = new Map<string, { raw: string; value: unknown }>();
let storageListenerAttached = false;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null; // access denied (e.g. sandboxed iframe)
  }
}

function notify(): void {
  for (const listener of [...listeners]) listener();
}

function onStorage(event: StorageEvent): void {
  if (event.key === null || event.key.startsWith(PREFERENCE_PREFIX)) notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!storageListenerAttached && typeof window !== 'undefined') {
    window.addEventListener('storage', onStorage);
    storageListenerAttached = true;
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && storageListenerAttached && typeof window !== 'undefined') {
      window.removeEventListener('storage', onStorage);
      storageListenerAttached = false;
    }
  };
}

/** Sets (or clears, with null) the user whose preferences are read and written. */
export function setPreferenceOwner(next: PreferenceOwner | null): void {
  const same =
    (owner === null && next === null) ||
    (owner !== null && next !== null && String(owner.id) === String(next.id) && owner.user === next.user);
  owner = next ? { id: next.id, user: next.user } : null;
  if (!same) notify();
}

export function getPreferenceOwner(): PreferenceOwner | null {
  return owner;
}

/** The storage key of a preference for the current owner. */
export function preferenceKey(name: string): string {
  return owner === null ? `${PREFERENCE_PREFIX}anon:${name}` : `${PREFERENCE_PREFIX}${owner.id}:${owner.user}:${name}`;
}

function readRaw(key: string): string | null {
  const store = storage();
  if (store) {
    try {
      const value = store.getItem(key);
      if (value !== null) return value;
    } catch {
      // fall through to memory
    }
  }
  return memory.get(key) ?? null;
}

function parseRaw<T>(key: string, raw: string, fallback: T): T {
  const cached = parsed.get(key);
  if (cached && cached.raw === raw) return cached.value as T;
  try {
    const value: unknown = JSON.parse(raw);
    parsed.set(key, { raw, value });
    return value as T;
  } catch {
    return fallback;
  }
}

/** Reads a preference of the current owner; the fallback when missing or corrupt. */
export function readPreference<T>(name: string, fallback: T): T {
  const key = preferenceKey(name);
  const raw = readRaw(key);
  return raw === null ? fallback : parseRaw(key, raw, fallback);
}

/** Writes a preference of the current owner (JSON) and notifies subscribers. `undefined` removes it. */
export function writePreference<T>(name: string, value: T): void {
  if (value === undefined) {
    removePreference(name);
    return;
  }
  const key = preferenceKey(name);
  const raw = JSON.stringify(value);
  const store = storage();
  let stored = false;
  if (store) {
    try {
      store.setItem(key, raw);
      stored = true;
      memory.delete(key);
    } catch {
      stored = false; // quota exceeded or private mode
    }
  }
  if (!stored) memory.set(key, raw);
  notify();
}

/** Removes a preference of the current owner and notifies subscribers. */
export function removePreference(name: string): void {
  const key = preferenceKey(name);
  const store = storage();
  if (store) {
    try {
      store.removeItem(key);
    } catch {
      // ignore
    }
  }
  memory.delete(key);
  parsed.delete(key);
  notify();
}

export type PreferenceSetter<T> = (value: T | ((previous: T) => T)) => void;

/**
 * React hook over a preference of the current owner. Every component using the same name
 * re-renders when it changes (also when the owner changes). The value keeps its identity until
 * the stored JSON changes. Returns [value, set, reset].
 */
export function usePreference<T>(name: string, fallback: T): [T, PreferenceSetter<T>, () => void] {
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(preferenceKey(name)),
    () => null,
  );
  const value = raw === null ? fallback : parseRaw(preferenceKey(name), raw, fallback);
  // The latest fallback, read by functional updates; a ref keeps `set` stable across renders.
  const fallbackRef = useRef(fallback);
  useEffect(() => {
    fallbackRef.current = fallback;
  });
  const set = useCallback<PreferenceSetter<T>>(
    (next) => {
      const resolved =
        typeof next === 'function'
          ? (next as (previous: T) => T)(readPreference(name, fallbackRef.current))
          : next;
      writePreference(name, resolved);
    },
    [name],
  );
  const reset = useCallback(() => removePreference(name), [name]);
  return [value, set, reset];
}
