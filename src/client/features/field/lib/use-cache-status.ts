/** How fresh this device's copy of the farm's miners is: last complete sync, last error, rows held. Live (Dexie). */
import { useLiveQuery } from 'dexie-react-hooks';
import { offlineDb } from '@client/lib/offline/db';
import { countMiners } from '@client/lib/offline/miner-store';

export interface CacheStatus {
  loaded: boolean;
  syncedAt: number | null;
  error: string | null;
  count: number;
}

export function useCacheStatus(agentKey: string): CacheStatus {
  const status = useLiveQuery(async () => {
    const db = offlineDb();
    const [state, count] = await Promise.all([
      db.syncState.get([agentKey, 'miners']),
      countMiners(agentKey),
    ]);
    return { loaded: true, syncedAt: state?.syncedAt ?? null, error: state?.error ?? null, count };
  }, [agentKey]);
  return status ?? { loaded: false, syncedAt: null, error: null, count: 0 };
}
