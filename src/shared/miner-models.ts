/**
 * Catalogue of the miner models Hashfield knows (simulated and recognised by the agent).
 * Isomorphic: no node imports. Figures from miner-protocols.md §8.4 plus vendor nameplates.
 */

export type MinerMake = 'Antminer' | 'Whatsminer';
export type MinerFirmwareKind = 'stock' | 'btminer' | 'braiins' | 'vnish';
export type WorkModeName = 'normal' | 'sleep' | 'low-power' | 'high';
export type CoolingKind = 'air' | 'hydro';

export interface MinerModel {
  /** stable catalogue id, e.g. `antminer-s19j-pro` */
  id: string;
  make: MinerMake;
  firmware: MinerFirmwareKind;
  /** model string exactly as the firmware reports it (RPC `Type`, `DEVDETAILS[0].Model`, …) */
  reportedName: string;
  /** normalised short model, e.g. `S19j Pro`, `M60S VK40` */
  model: string;
  hashboards: number;
  chipsPerBoard: number;
  fans: number;
  cooling: CoolingKind;
  /** nominal (sticker) hashrate, GH/s */
  idealGhs: number;
  /** nominal wall power in normal mode, W */
  powerW: number;
  workModes: readonly WorkModeName[];
  /** nominal chip frequency in MHz (normal mode) */
  freqMhz: number;
  /** chips per voltage domain, used to group the chain_acs string */
  chipsPerDomain: number;
}

const STOCK_MODES: readonly WorkModeName[] = ['normal', 'sleep', 'low-power'];
const STOCK_MODES_HIGH: readonly WorkModeName[] = ['normal', 'sleep', 'low-power', 'high'];

export const MINER_MODELS: readonly MinerModel[] = [
  {
    id: 'antminer-s19', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19', model: 'S19',
    hashboards: 3, chipsPerBoard: 76, fans: 4, cooling: 'air', idealGhs: 95_000, powerW: 3250,
    workModes: STOCK_MODES, freqMhz: 650, chipsPerDomain: 2,
  },
  {
    id: 'antminer-s19j-pro', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19j Pro', model: 'S19j Pro',
    hashboards: 3, chipsPerBoard: 126, fans: 4, cooling: 'air', idealGhs: 100_000, powerW: 3050,
    workModes: STOCK_MODES, freqMhz: 525, chipsPerDomain: 3,
  },
  {
    id: 'antminer-s19-xp', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19 XP', model: 'S19 XP',
    hashboards: 3, chipsPerBoard: 110, fans: 4, cooling: 'air', idealGhs: 141_000, powerW: 3010,
    workModes: STOCK_MODES, freqMhz: 485, chipsPerDomain: 2,
  },
  {
    id: 'antminer-s19-xp-hyd', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19 XP Hyd.', model: 'S19 XP Hydro',
    hashboards: 3, chipsPerBoard: 204, fans: 0, cooling: 'hydro', idealGhs: 255_000, powerW: 5304,
    workModes: STOCK_MODES_HIGH, freqMhz: 500, chipsPerDomain: 4,
  },
  {
    id: 'antminer-s21', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21', model: 'S21',
    hashboards: 3, chipsPerBoard: 108, fans: 4, cooling: 'air', idealGhs: 200_000, powerW: 3500,
    workModes: STOCK_MODES_HIGH, freqMhz: 490, chipsPerDomain: 2,
  },
  {
    id: 'antminer-t21', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer T21', model: 'T21',
    hashboards: 3, chipsPerBoard: 108, fans: 4, cooling: 'air', idealGhs: 190_000, powerW: 3610,
    workModes: STOCK_MODES_HIGH, freqMhz: 475, chipsPerDomain: 2,
  },
  {
    // pyasic M50SVH30: 156 chips per board, 2 fans (intake + exhaust)
    id: 'whatsminer-m50s', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M50S_VH30', model: 'M50S VH30',
    hashboards: 3, chipsPerBoard: 156, fans: 2, cooling: 'air', idealGhs: 126_000, powerW: 3276,
    workModes: STOCK_MODES_HIGH, freqMhz: 575, chipsPerDomain: 3,
  },
  {
    // a recorded M60S VK40 shows 75 effective chips per board (pyasic's 225 is the unit total) and factory 181.05 TH
    id: 'whatsminer-m60s', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M60S_VK40', model: 'M60S VK40',
    hashboards: 3, chipsPerBoard: 75, fans: 2, cooling: 'air', idealGhs: 181_051, powerW: 3344,
    workModes: STOCK_MODES_HIGH, freqMhz: 625, chipsPerDomain: 3,
  },
  {
    // Braiins OS on an S19j Pro: devdetails Model carries the `Bitmain ` prefix
    id: 'braiins-s19j-pro', make: 'Antminer', firmware: 'braiins', reportedName: 'Bitmain Antminer S19j Pro', model: 'S19j Pro',
    hashboards: 3, chipsPerBoard: 126, fans: 4, cooling: 'air', idealGhs: 104_000, powerW: 3068,
    workModes: ['normal', 'sleep'], freqMhz: 525, chipsPerDomain: 3,
  },
  {
    // VNish reports `Antminer S21 Pro (Vnish 1.2.7)` in stats Type; the name here is the part before ` (`
    id: 'vnish-s21-pro', make: 'Antminer', firmware: 'vnish', reportedName: 'Antminer S21 Pro', model: 'S21 Pro',
    hashboards: 3, chipsPerBoard: 65, fans: 4, cooling: 'air', idealGhs: 234_000, powerW: 3510,
    workModes: ['normal', 'sleep', 'low-power'], freqMhz: 495, chipsPerDomain: 1,
  },
];

/** Normalise a model string the way pyasic does, for lookups: case, `Bitmain ` prefix, ` (…)` suffix, S19XP. */
export function normaliseModelName(raw: string): string {
  let s = raw.trim();
  const paren = s.indexOf(' (');
  if (paren > 0) s = s.slice(0, paren);
  s = s.replace(/^bitmain\s+/i, '').replace(/^antminer\s+/i, '');
  s = s.replace(/\bS19XP\b/i, 'S19 XP').replace(/\s+AML$/i, '');
  s = s.replace(/\s+hyd\.?$/i, ' Hydro').replace(/\s+hydro$/i, ' Hydro');
  // Whatsminer: `M60S_VK40` / `M60SVK40` / `M60S VK40` → `M60SVK40`
  if (/^M\d/i.test(s)) s = s.replace(/[_\s]/g, '');
  return s.toUpperCase();
}

function whatsminerFamilyKey(norm: string): string {
  // pyasic replaces the last character with 0 (`M50_VH84` → `M50VH80`)
  return norm.length > 0 ? `${norm.slice(0, -1)}0` : norm;
}

/** Find a model by any name a firmware reports (`Antminer S19j Pro`, `Bitmain Antminer S19j Pro`, `M60S_VK40`, …). */
export function findMinerModel(name: string, firmware?: MinerFirmwareKind): MinerModel | undefined {
  const norm = normaliseModelName(name);
  const candidates = MINER_MODELS.filter((m) => normaliseModelName(m.reportedName) === norm
    || normaliseModelName(m.model) === norm
    || (/^M\d/.test(norm) && whatsminerFamilyKey(normaliseModelName(m.reportedName)) === whatsminerFamilyKey(norm)));
  if (firmware) return candidates.find((m) => m.firmware === firmware) ?? candidates[0];
  // prefer the stock entry when the same hardware exists under several firmwares
  return candidates.find((m) => m.firmware === 'stock' || m.firmware === 'btminer') ?? candidates[0];
}

export function getMinerModelById(id: string): MinerModel | undefined {
  return MINER_MODELS.find((m) => m.id === id);
}

/** Expected total chips of a unit. */
export function expectedChips(model: MinerModel): number {
  return model.hashboards * model.chipsPerBoard;
}
