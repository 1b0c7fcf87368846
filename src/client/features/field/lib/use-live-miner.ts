/**
 * While a miner's card is open and the device online, its row is fetched from the server on opening, every
 * SYNC_INTERVAL_MS while the page is visible, and when the connection returns (refreshCachedMiner): the farm's feed
 * brings unchanged readings only every few minutes, the card shows the latest. The card itself keeps reading the
 * cache, so offline it shows what was cached, with its age.
 */
import { useEffect } from 'react';
import { SYNC_INTERVAL_MS, refreshCachedMiner } from '@client/lib/offline/sync';

export function useLiveMiner(agentKey: string, minerId: string, intervalMs = SYNC_INTERVAL_MS): void {
  useEffect(() => {
    const visible = () => typeof document === 'undefined' || document.visibilityState === 'visible';
    const refresh = () => {
      // A failure leaves the cached row: the card shows its age, the next trigger tries again.
      if (visible()) refreshCachedMiner(agentKey, minerId).catch(() => undefined);
    };
    refresh();
    const timer = setInterval(refresh, intervalMs);
    window.addEventListener('online', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [agentKey, minerId, intervalMs]);
}
