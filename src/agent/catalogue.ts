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

/** family → reported string → entry (no key string built per call). */
const cache = new Map<FirmwareFamily, Map<string, MinerModel | null>>();

/** Catalogue entry for a reported model string (memoised: called for every miner every cycle). */
export function lookupModel(reported: string, family: FirmwareFamily): MinerModel | undefined {
  if (!reported) return undefined;
  let byReported = cache.get(family);
  if (!byReported) cache.set(family, (byReported = new Map()));
  let m = byReported.get(reported);
  if (m === undefined) {
    m = findMinerModel(reported, KIND[family]) ?? null;
    if (byReported.size > 10000) byReported.clear();
    byReported.set(reported, m);
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
