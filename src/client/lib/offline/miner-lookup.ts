/**
 * Finding a miner in the offline cache (IndexedDB, filled by sync.ts), online or not. Lookups binary-search the
 * farm's sorted keys (miner-store.ts: one record, kept in memory until it changes) and then read the miners'
 * buckets: nothing reads the whole farm.
 *
 * - `findMinerBySn(agentKey, sn)` — exact SN (case and surrounding spaces ignored); measured as 'hf-sn-lookup'.
 * - `findMinerByIp(agentKey, ip)` — exact IP.
 * - `searchMiners(agentKey, text, limit = 50)` — miners whose SN or IP starts with `text` (SN case-insensitive),
 *   SN matches first, then IP matches, each in key order (ties by id), without duplicates.
 */
import { normaliseSn } from '@shared/sn';
import { type CachedMiner, getMiner, getMiners, idOfKey, lowerBound, readMinerKeys } from './miner-store';

export type { CachedMiner };

export const SN_LOOKUP_MEASURE = 'hf-sn-lookup';

/** The ids of the first `limit` keys starting with `prefix`. */
function idsFrom(keys: readonly string[], ids: readonly string[], prefix: string, limit: number): string[] {
  const out: string[] = [];
  for (let i = lowerBound(keys, prefix); i < keys.length && out.length < limit && keys[i]!.startsWith(prefix); i++) out.push(ids[i]!);
  return out;
}

/** The cached miner whose SN or IP is exactly `key`. */
async function minerOfKey(agentKey: string, field: 'sn' | 'ip', key: string): Promise<CachedMiner | null> {
  const id = await idOfKey(agentKey, field, key);
  return (id !== undefined && (await getMiner(agentKey, id))) || null;
}

export async function findMinerBySn(agentKey: string, sn: string): Promise<CachedMiner | null> {
  const key = normaliseSn(sn);
  if (!key) return null;
  const mark = `${SN_LOOKUP_MEASURE}-start`;
  const measured = typeof performance !== 'undefined' && typeof performance.mark === 'function';
  if (measured) performance.mark(mark);
  try {
    return await minerOfKey(agentKey, 'sn', key);
  } finally {
    if (measured) {
      try {
        performance.measure(SN_LOOKUP_MEASURE, mark);
        performance.clearMarks(mark);
      } catch {
        /* measuring is best effort */
      }
    }
  }
}

export async function findMinerByIp(agentKey: string, ip: string): Promise<CachedMiner | null> {
  const key = ip.trim();
  if (!key) return null;
  return minerOfKey(agentKey, 'ip', key);
}

export async function searchMiners(agentKey: string, text: string, limit = 50): Promise<CachedMiner[]> {
  const raw = text.trim();
  if (!raw || limit <= 0) return [];
  const keys = await readMinerKeys(agentKey);
  if (!keys) return [];
  const ids = idsFrom(keys.sn, keys.snId, raw.toUpperCase(), limit);
  if (ids.length < limit && /^[0-9a-fA-F.:]+$/.test(raw)) {
    const seen = new Set(ids);
    for (const id of idsFrom(keys.ip, keys.ipId, raw, limit)) if (!seen.has(id)) ids.push(id);
  }
  const miners = await getMiners(agentKey, ids.slice(0, limit));
  return miners.filter((m): m is CachedMiner => m !== undefined);
}
