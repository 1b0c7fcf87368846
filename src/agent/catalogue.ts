import { findMinerModel, type MinerFirmwareKind, type MinerModel } from '@shared/miner-models';
import type { FirmwareFamily } from '@shared/schemas/miner-snapshot';

/** Agent view of the model catalogue (src/shared/miner-models.ts). */

const KIND: Partial<Record<FirmwareFamily, MinerFirmwareKind>> = {
  'antminer-stock': 'stock',
  whatsminer: 'btminer',
  braiins: 'braiins',
  vnish: 'vnish',
  // LuxOS runs on stock Antminer hardware: same boards, chips and fans
  luxos: 'stock',
};

const cache = new Map<string, MinerModel | null>();

/** Catalogue entry for a reported model string (memoised: called for every miner every cycle). */
export function lookupModel(reported: string, family: FirmwareFamily): MinerModel | undefined {
  if (!reported) return undefined;
  const key = `${family}\u0000${reported}`;
  let m = cache.get(key);
  if (m === undefined) {
    m = findMinerModel(reported, KIND[family]) ?? null;
    if (cache.size > 10000) cache.clear();
    cache.set(key, m);
  }
  return m ?? undefined;
}

/** Model name for snapshots: catalogue name, else the reported string without vendor prefix / " (…)" suffix. */
export function displayModel(reported: string, family: FirmwareFamily): string {
  const m = lookupModel(reported, family);
  if (m) return m.model;
  let s = reported.trim();
  const paren = s.indexOf(' (');
  if (paren > 0) s = s.slice(0, paren);
  s = s.replace(/^bitmain\s+/i, '').replace(/^antminer\s+/i, '').replace(/\bS19XP\b/i, 'S19 XP').replace(/\s+AML$/i, '');
  if (/^M\d/i.test(s)) s = s.replace(/_/g, ' ');
  return s;
}

export function makeOf(reported: string, family: FirmwareFamily): string {
  const m = lookupModel(reported, family);
  if (m) return m.make;
  if (family === 'whatsminer' || /^M\d/i.test(reported)) return 'Whatsminer';
  if (/antminer|bitmain|^[SLTKDE]\d/i.test(reported) || family !== 'unknown') return 'Antminer';
  return 'Unknown';
}
