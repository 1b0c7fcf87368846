/**
 * Starts the offline write path for the page: the miner write kinds, the outbox replayer and its triggers,
 * the server-reachability probe (lib/offline/connectivity.ts: its recovery kicks the outbox and the sync),
 * the resume after a login (the current user query succeeding again lifts a 401 pause) and the hold of
 * service-worker updates while writes wait to be sent.
 */
import type { QueryClient } from '@tanstack/react-query';
import { currentLocale } from '@client/lib/i18n';
import { startConnectivity } from '@client/lib/offline/connectivity';
import { registerMinerWrites } from '@client/lib/offline/miner-writes';
import { outboxHoldsUpdate, resumeOutbox, startOutbox } from '@client/lib/offline/outbox';
import { sessionKeys } from '@client/lib/session-api';
import { holdUpdateWhile } from '@client/lib/sw-update';

const sameKey = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function startOfflineWrites(queryClient: QueryClient): () => void {
  registerMinerWrites();
  const stopConnectivity = startConnectivity();
  const stopOutbox = startOutbox({ locale: currentLocale });
  const releaseHold = holdUpdateWhile(outboxHoldsUpdate);
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    if (!sameKey(event.query.queryKey, sessionKeys.currentUser) || !event.query.state.data) return;
    resumeOutbox();
  });
  return () => {
    unsubscribe();
    releaseHold();
    stopOutbox();
    stopConnectivity();
  };
}
