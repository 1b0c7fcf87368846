/**
 * TanStack Query client with a persisted READ cache (architecture.md "server state"): successful query
 * answers are written to localStorage so the shell can open offline with the last farm and user.
 * Writes never go through this cache (the outbox does that).
 */
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { ApiError } from './api-client';
import { isEffectivelyOnline, subscribeConnectivity } from './offline/connectivity';

export const QUERY_CACHE_STORAGE_KEY = 'hf.query-cache';
/** Persisted answers older than this are dropped on start. */
export const QUERY_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Retry network failures and 5xx twice; never retry an answer the server gave on purpose (4xx, 401). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && typeof error.status === 'number' && error.status > 0 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * TanStack Query's "online" is the effective connectivity (connectivity.ts), not navigator.onLine alone: while the
 * server does not answer, a failed query's retries wait instead of failing one after the other, and when it answers
 * again the paused retries go on and stale queries refetch (refetchOnReconnect), as after a real reconnect.
 */
export function followConnectivity(): void {
  onlineManager.setEventListener((setOnline) => subscribeConnectivity(() => setOnline(isEffectivelyOnline())));
}

export function createQueryClient(): QueryClient {
  followConnectivity();
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Try the network (the service worker answers from its cache when offline); keep cached data on failure.
        networkMode: 'offlineFirst',
        staleTime: 30_000,
        gcTime: QUERY_CACHE_MAX_AGE_MS,
        retry: shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { networkMode: 'offlineFirst', retry: false },
    },
  });
}

export function createQueryPersister() {
  return createSyncStoragePersister({
    storage: typeof window === 'undefined' ? undefined : window.localStorage,
    key: QUERY_CACHE_STORAGE_KEY,
    throttleTime: 1000,
  });
}
