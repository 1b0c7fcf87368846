/**
 * What the technician's screens read from and write to the local cache (IndexedDB through Dexie): search by
 * SN or IP and exact SN (lib/offline/miner-lookup), the miner by id, and the "recent miners" list (newest first, the last RECENT_LIMIT per farm).
 * Everything here works offline; nothing asks the server.
 */
import Dexie from 'dexie';
import { normaliseSn } from '@shared/sn';
import { offlineDb } from '@client/lib/offline/db';
import { type CachedMiner, findMinerBySn, searchMiners } from '@client/lib/offline/miner-lookup';
import { getMiner, getMiners } from '@client/lib/offline/miner-store';

export type { CachedMiner };

export const RECENT_LIMIT = 20;
export const SEARCH_LIMIT = 20;

/** Miners whose SN or IP starts with the text (SN matches first), from the farm's cache. */
export function searchCache(agentKey: string, text: string, limit = SEARCH_LIMIT): Promise<CachedMiner[]> {
  return searchMiners(agentKey, normaliseSn(text), limit);
}

/** The miner with exactly this SN in the farm's cache (upper-case compare). */
export async function findBySn(agentKey: string, sn: string): Promise<CachedMiner | undefined> {
  return (await findMinerBySn(agentKey, normaliseSn(sn))) ?? undefined;
}

export async function getCachedMiner(agentKey: string, minerId: string): Promise<CachedMiner | undefined> {
  return getMiner(agentKey, minerId);
}

/** Remembers that the miner was opened now; keeps the farm's list to the last RECENT_LIMIT. */
export async function recordVisit(agentKey: string, minerId: string, now = Date.now()): Promise<void> {
  const db = offlineDb();
  await db.transaction('rw', db.recentMiners, async () => {
    await db.recentMiners.put({ agentKey, minerId, openedAt: now });
    const older = await db.recentMiners
      .where('[agentKey+openedAt]')
      .between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey])
      .reverse()
      .offset(RECENT_LIMIT)
      .primaryKeys();
    if (older.length > 0) await db.recentMiners.bulkDelete(older);
  });
}

export interface RecentMiner {
  minerId: string;
  openedAt: number;
  /** undefined when the miner left the cache (removed from the farm). */
  miner: CachedMiner | undefined;
}

/** The farm's recently opened miners, newest first. */
export async function recentMiners(agentKey: string, limit = RECENT_LIMIT): Promise<RecentMiner[]> {
  const db = offlineDb();
  const visits = await db.recentMiners
    .where('[agentKey+openedAt]')
    .between([agentKey, Dexie.minKey], [agentKey, Dexie.maxKey])
    .reverse()
    .limit(limit)
    .toArray();
  const miners = await getMiners(agentKey, visits.map((v) => v.minerId));
  return visits.map((v, i) => ({ minerId: v.minerId, openedAt: v.openedAt, miner: miners[i] }));
}
