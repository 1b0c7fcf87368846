/**
 * Finding a miner in the offline cache (IndexedDB, filled by sync.ts), online or not. Every query goes through
 * the farm's compound indexes ([agentKey+sn], [agentKey+ip]) with a key range and a limit: nothing reads the
 * whole store.
 *
 * - `findMinerBySn(agentKey, sn)` — exact SN (case and surrounding spaces ignored); measured as 'hf-sn-lookup'.
 * - `findMinerByIp(agentKey, ip)` — exact IP.
 * - `searchMiners(agentKey, text, limit = 50)` — miners whose SN or IP starts with `text` (SN case-insensitive),
 *   SN matches first, then IP matches, each in index order, without duplicates.
 */
import type { MinerSyncRow } from '@shared/schemas/sync';
import { normaliseSn } from '@shared/sn';
import { type Cached, offlineDb } from './db';

export type CachedMiner = Cached<MinerSyncRow>;

export const SN_LOOKUP_MEASURE = 'hf-sn-lookup';
/** Sorts after every character an SN or IP holds: upper bound of a prefix range. */
const HIGH = '\uffff';

export async function findMinerBySn(agentKey: string, sn: string): Promise<CachedMiner | null> {
  const key = normaliseSn(sn);
  if (!key) return null;
  const mark = `${SN_LOOKUP_MEASURE}-start`;
  const measured = typeof performance !== 'undefined' && typeof performance.mark === 'function';
  if (measured) performance.mark(mark);
  try {
    return (await offlineDb().miners.where('[agentKey+sn]').equals([agentKey, key]).first()) ?? null;
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
  return (await offlineDb().miners.where('[agentKey+ip]').equals([agentKey, key]).first()) ?? null;
}

export async function searchMiners(agentKey: string, text: string, limit = 50): Promise<CachedMiner[]> {
  const raw = text.trim();
  if (!raw || limit <= 0) return [];
  const miners = offlineDb().miners;
  const sn = raw.toUpperCase();
  const bySn = await miners
    .where('[agentKey+sn]')
    .between([agentKey, sn], [agentKey, sn + HIGH], true, true)
    .limit(limit)
    .toArray();
  if (bySn.length >= limit || !/^[0-9a-fA-F.:]+$/.test(raw)) return bySn;
  const seen = new Set(bySn.map((m) => m.id));
  const byIp = await miners
    .where('[agentKey+ip]')
    .between([agentKey, raw], [agentKey, raw + HIGH], true, true)
    .limit(limit)
    .toArray();
  return [...bySn, ...byIp.filter((m) => !seen.has(m.id))].slice(0, limit);
}
