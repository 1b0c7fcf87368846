/**
 * Everything behind login goes through this gate (spec 1 §2.1): spinner until the current user is known,
 * the set-up page while no administrator exists, the login page when there is no session. Offline, a user
 * and farm list restored from the persisted read cache open the console as they were last seen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { CurrentUser } from '@shared/schemas/auth';
import { ApiError } from '@client/lib/api-client';
import { importWithRetry } from '@client/lib/import-retry';
import { getAgentKey, getLastAgentKey, pickAgentKey, setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { setOutboxUser } from '@client/lib/offline/outbox-user';
import { requestPersistence } from '@client/lib/offline/storage';
import { setPreferenceOwner } from '@client/lib/preferences';
import { sessionKeys, useCurrentUser, useFarmOptions, usePublicConfig } from '@client/lib/session-api';
import { FullScreenLoader } from '@client/components/page-loading';
import { ConnectionError } from '@client/features/errors/components/connection-error';

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && String(error.code) === '401';
}

/**
 * Selects a farm once the user's farm list is known: this tab's, else the last one, else the first. A list restored
 * from the persisted cache can predate the tab's farm (created since, in another tab or by another user): while the
 * list is being fetched again, a farm missing from it is not switched away from; the fresh list decides. Offline the
 * fetch pauses (not fetching) and the cached list decides at once.
 */
export function useFarmAutoSelect(enabled: boolean): void {
  const farms = useFarmOptions(enabled);
  const list = farms.data;
  const fetching = farms.isFetching;
  useEffect(() => {
    if (!list) return;
    const tab = getAgentKey();
    if (fetching && tab !== null && !list.some((o) => o.value === tab)) return;
    const next = pickAgentKey(list, tab, getLastAgentKey());
    if (next !== tab) setAgentKey(next);
  }, [list, fetching]);
}

/**
 * Logged in: ask once for persistent storage, and keep the selected farm's offline caches synced
 * (lib/offline/sync.ts, loaded lazily so Dexie stays out of the first chunk; stopped on logout or farm switch).
 */
export function useOfflineSync(userId: string | null): void {
  const loggedIn = userId !== null;
  const agentKey = useAgentKey();
  useEffect(() => {
    if (loggedIn) void requestPersistence();
  }, [loggedIn]);
  useEffect(() => {
    if (!loggedIn || !agentKey) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    importWithRetry(() => import('@client/lib/offline/sync'))
      .then((m) => {
        if (!cancelled) stop = m.startSyncLoop(agentKey, { userId: userId! });
      })
      .catch(() => undefined); // chunk not reachable after its retries (offline, no cache): the next login or farm switch tries again
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [loggedIn, agentKey, userId]);
}

export interface SessionGateProps {
  children: (user: CurrentUser) => ReactNode;
}

export function SessionGate({ children }: SessionGateProps) {
  const config = usePublicConfig();
  const user = useCurrentUser();
  const location = useLocation();
  const queryClient = useQueryClient();
  const unauthorized = isUnauthorized(user.error);
  const ownerId = user.data?.id;
  const ownerName = user.data?.user;

  useEffect(() => {
    if (unauthorized) queryClient.removeQueries({ queryKey: sessionKeys.currentUser });
  }, [unauthorized, queryClient]);
  useEffect(() => {
    setPreferenceOwner(ownerId !== undefined && ownerName !== undefined ? { id: ownerId, user: ownerName } : null);
    // The outbox sends this user's changes only.
    setOutboxUser(ownerId ?? null);
  }, [ownerId, ownerName]);
  useFarmAutoSelect(Boolean(user.data) && !unauthorized);
  useOfflineSync(user.data && !unauthorized ? user.data.id : null);

  if (config.data?.setupNeeded) return <Navigate to="/setup" replace />;
  if (unauthorized) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (!user.data) return user.isError ? <ConnectionError onRetry={() => void user.refetch()} /> : <FullScreenLoader />;
  return <>{children(user.data)}</>;
}
