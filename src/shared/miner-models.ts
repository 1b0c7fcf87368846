/**
 * Catalogue of the miner models Hashfield knows: MINER_MODELS (simulated, and recognised by the agent) plus
 * RECOGNISED_MODELS (recognised by the agent only). Lookups search both (KNOWN_MINER_MODELS); the simulator builds
 * its fleet from MINER_MODELS alone, so adding a recognised model never changes a simulated fleet.
 * Isomorphic: no node imports. Figures from miner-protocols.md §8.4 plus vendor nameplates.
 */

export type MinerMake = 'Antminer' | 'Whatsminer';
export type MinerFirmwareKind = 'stock' | 'btminer' | 'braiins' | 'vnish';
export type WorkModeName = 'normal' | 'sleep' | 'low-power' | 'high';
/** `immersion` units, like `hydro` ones, have no fans of their own (fans 0). */
export type CoolingKind = 'air' | 'hydro' | 'immersion';

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
  /** nominal chip frequency in MHz (normal mode); 0 = not known (recognised-only models: the unit's own figure is used) */
  freqMhz: number;
  /** chips per voltage domain, used (by the simulator) to group the chain_acs string; 1 = not known */
  chipsPerDomain: number;
}

const STOCK_MODES: readonly WorkModeName[] = ['normal', 'sleep', 'low-power'];
const STOCK_MODES_HIGH: readonly WorkModeName[] = ['normal', 'sleep', 'low-power', 'high'];

/**
 * The simulated models: src/simulator/fleet.ts builds every simulated fleet from this list, so it must stay the
 * simulated mix (demo, simulator tests). Models the agent should only recognise go in RECOGNISED_MODELS.
 */
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

/*
 * Recognised-only models (not simulated). Boards, chips per board and fans come from the source named in each
 * comment: pyasic `miners/device/models` (expected_hashboards / expected_chips per board / expected_fans), asic-rs
 * `asic-rs-makes/{antminer,whatsminer}/src/hardware.rs` (MinerHardware: fans, chips per board) or recorded units (asic-rs captured stats,
 * pyasic issue dumps). Hashrate and power are the vendor nameplate of the common bin; the firmware's own ideal
 * (`total_rateideal`, `Factory GHS`) takes precedence wherever it is reported. Whatsminer names carry the chip bin
 * (`_VH40`): chips differ per bin, so each entry is one bin (findMinerModel matches `_VH41`…`_VH49` to `_VH40`).
 */
export const RECOGNISED_MODELS: readonly MinerModel[] = [
  // ── Antminer, stock firmware (RPC stats `Type`) ──
  {
    // pyasic S19Pro / asic-rs: 3 × 114 chips, 4 fans; recorded total_rateideal 110000 GH (§8.4)
    id: 'antminer-s19-pro', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19 Pro', model: 'S19 Pro',
    hashboards: 3, chipsPerBoard: 114, fans: 4, cooling: 'air', idealGhs: 110_000, powerW: 3250,
    workModes: STOCK_MODES, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic S19kPro / asic-rs S19KPro: 3 × 77 chips, 4 fans (pyasic issue #78: a unit showing 77 per board)
    id: 'antminer-s19k-pro', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19k Pro', model: 'S19k Pro',
    hashboards: 3, chipsPerBoard: 77, fans: 4, cooling: 'air', idealGhs: 120_000, powerW: 2760,
    workModes: STOCK_MODES, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic S19jProPlus / asic-rs: 3 × 120 chips, 4 fans (pyasic issues #354, #397: units showing 3 × 120)
    id: 'antminer-s19j-pro-plus', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S19j Pro+', model: 'S19j Pro+',
    hashboards: 3, chipsPerBoard: 120, fans: 4, cooling: 'air', idealGhs: 122_000, powerW: 3355,
    workModes: STOCK_MODES, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic T19 / asic-rs: 3 × 76 chips, 4 fans
    id: 'antminer-t19', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer T19', model: 'T19',
    hashboards: 3, chipsPerBoard: 76, fans: 4, cooling: 'air', idealGhs: 84_000, powerW: 3150,
    workModes: STOCK_MODES, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // stock S21 Pro (same hardware as vnish-s21-pro): pyasic S21Pro / asic-rs 3 × 65 chips, 4 fans
    id: 'antminer-s21-pro', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21 Pro', model: 'S21 Pro',
    hashboards: 3, chipsPerBoard: 65, fans: 4, cooling: 'air', idealGhs: 234_000, powerW: 3510,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs S21Plus: 3 × 55 chips, 4 fans (pyasic issue #316: a stock unit showing 3 × 55)
    id: 'antminer-s21-plus', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21+', model: 'S21+',
    hashboards: 3, chipsPerBoard: 55, fans: 4, cooling: 'air', idealGhs: 216_000, powerW: 3564,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs S21XP: 3 × 91 chips, 4 fans (pyasic issue #397: a stock unit showing 3 × 91)
    id: 'antminer-s21-xp', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21 XP', model: 'S21 XP',
    hashboards: 3, chipsPerBoard: 91, fans: 4, cooling: 'air', idealGhs: 270_000, powerW: 3645,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs S21Hydro: 3 × 216 chips, 0 fans (pyasic S21Hydro: 216 chips, boards fixed to 3 in pyasic PR #293)
    id: 'antminer-s21-hyd', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21 Hyd.', model: 'S21 Hydro',
    hashboards: 3, chipsPerBoard: 216, fans: 0, cooling: 'hydro', idealGhs: 335_000, powerW: 5360,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs S21PlusHydro: 3 × 95 chips, 0 fans (§8.4); some builds report `Antminer S21+ Hyd` without the dot
    id: 'antminer-s21-plus-hyd', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21+ Hyd.', model: 'S21+ Hydro',
    hashboards: 3, chipsPerBoard: 95, fans: 0, cooling: 'hydro', idealGhs: 319_000, powerW: 4785,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs captured stats of a stock unit: 3 chains × 160 chips (groups of 8), fan_num 4 all 0, freq 495,
    // total_rateideal 473000 GH (asic-rs hardware.rs: 3 boards, 0 fans, chips not documented by Bitmain)
    id: 'antminer-s21-xp-hyd', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S21 XP Hyd.', model: 'S21 XP Hydro',
    hashboards: 3, chipsPerBoard: 160, fans: 0, cooling: 'hydro', idealGhs: 473_000, powerW: 5676,
    workModes: STOCK_MODES_HIGH, freqMhz: 495, chipsPerDomain: 8,
  },
  {
    // asic-rs captured stats of a stock unit: 3 chains × 84 chips (groups of 11, last padded `----`), fan_num 0,
    // freq 327, total_rateideal 581972.7 GH; asic-rs hardware.rs leaves boards/chips unset (no vendor figure)
    id: 'antminer-s23-hyd', make: 'Antminer', firmware: 'stock', reportedName: 'Antminer S23 Hyd.', model: 'S23 Hydro',
    hashboards: 3, chipsPerBoard: 84, fans: 0, cooling: 'hydro', idealGhs: 580_000, powerW: 5510,
    workModes: STOCK_MODES_HIGH, freqMhz: 327, chipsPerDomain: 11,
  },
  // ── Whatsminer, btminer (devdetails `Model`) ──
  {
    // pyasic M30SVH60 (fans 2, 3 boards) / asic-rs: 3 × 70 chips; M30S nameplate 88 TH, 38 J/TH
    id: 'whatsminer-m30s-vh60', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M30S_VH60', model: 'M30S VH60',
    hashboards: 3, chipsPerBoard: 70, fans: 2, cooling: 'air', idealGhs: 88_000, powerW: 3344,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M30SPlusVE40 / asic-rs: 3 × 156 chips, 2 fans; M30S+ nameplate 100 TH, 34 J/TH
    id: 'whatsminer-m30s-plus-ve40', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M30S+_VE40', model: 'M30S+ VE40',
    hashboards: 3, chipsPerBoard: 156, fans: 2, cooling: 'air', idealGhs: 100_000, powerW: 3400,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M30SPlusPlusVH40 / asic-rs: 3 × 70 chips, 2 fans; M30S++ nameplate 112 TH, 31 J/TH
    id: 'whatsminer-m30s-plus-plus-vh40', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M30S++_VH40', model: 'M30S++ VH40',
    hashboards: 3, chipsPerBoard: 70, fans: 2, cooling: 'air', idealGhs: 112_000, powerW: 3472,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M30SPlusPlusVH90 / asic-rs: 3 × 78 chips, 2 fans (also `M30S++_VH95`); M30S++ nameplate
    id: 'whatsminer-m30s-plus-plus-vh90', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M30S++_VH90', model: 'M30S++ VH90',
    hashboards: 3, chipsPerBoard: 78, fans: 2, cooling: 'air', idealGhs: 112_000, powerW: 3472,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs M31SPlusV100: 3 × 111 chips, 2 fans; M31S+ nameplate 80 TH, 42 J/TH
    id: 'whatsminer-m31s-plus-v100', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M31S+_V100', model: 'M31S+ V100',
    hashboards: 3, chipsPerBoard: 111, fans: 2, cooling: 'air', idealGhs: 80_000, powerW: 3360,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M31SPlusV80 / asic-rs: 3 × 129 chips, 2 fans; M31S+ nameplate
    id: 'whatsminer-m31s-plus-v80', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M31S+_V80', model: 'M31S+ V80',
    hashboards: 3, chipsPerBoard: 129, fans: 2, cooling: 'air', idealGhs: 80_000, powerW: 3360,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M50VH90 / asic-rs: 3 × 117 chips, 2 fans (pyasic issue #229: a unit showing 3 × 117, Factory 117.58 TH,
    // 3510 W); M50 nameplate 118 TH, 29 J/TH
    id: 'whatsminer-m50-vh90', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M50_VH90', model: 'M50 VH90',
    hashboards: 3, chipsPerBoard: 117, fans: 2, cooling: 'air', idealGhs: 118_000, powerW: 3422,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M50VH70 / asic-rs: 3 × 105 chips, 2 fans (pyasic issue #314: an `M50_VH75` showing 105); M50 nameplate
    id: 'whatsminer-m50-vh70', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M50_VH70', model: 'M50 VH70',
    hashboards: 3, chipsPerBoard: 105, fans: 2, cooling: 'air', idealGhs: 118_000, powerW: 3422,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // pyasic M50SPlusVK20 / asic-rs: 3 × 117 chips, 2 fans; M50S+ nameplate 140 TH, 24 J/TH
    id: 'whatsminer-m50s-plus-vk20', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M50S+_VK20', model: 'M50S+ VK20',
    hashboards: 3, chipsPerBoard: 117, fans: 2, cooling: 'air', idealGhs: 140_000, powerW: 3360,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // hydro: asic-rs M53SVH30: 4 × 204 chips, 0 fans (pyasic M53SVH30: fans 0, no chip count; an older pyasic says 3
    // boards); M53S nameplate 260 TH, 26 J/TH
    id: 'whatsminer-m53s-vh30', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M53S_VH30', model: 'M53S VH30',
    hashboards: 4, chipsPerBoard: 204, fans: 0, cooling: 'hydro', idealGhs: 260_000, powerW: 6760,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // immersion: asic-rs M56SVH30: 4 × 152 chips, 0 fans (pyasic M56SVH30: fans 0); M56S nameplate 212 TH, 26 J/TH
    id: 'whatsminer-m56s-vh30', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M56S_VH30', model: 'M56S VH30',
    hashboards: 4, chipsPerBoard: 152, fans: 0, cooling: 'immersion', idealGhs: 212_000, powerW: 5550,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
  {
    // asic-rs M60VK20: 3 × 172 chips, 2 fans (pyasic issue #215: a unit showing 3 × 172, Factory 177.61 TH, 3591 W);
    // M60 nameplate 172 TH, 19.9 J/TH
    id: 'whatsminer-m60-vk20', make: 'Whatsminer', firmware: 'btminer', reportedName: 'M60_VK20', model: 'M60 VK20',
    hashboards: 3, chipsPerBoard: 172, fans: 2, cooling: 'air', idealGhs: 172_000, powerW: 3422,
    workModes: STOCK_MODES_HIGH, freqMhz: 0, chipsPerDomain: 1,
  },
];

/** Every model the agent recognises: lookups search the simulated models first, then the recognised-only ones. */
export const KNOWN_MINER_MODELS: readonly MinerModel[] = [...MINER_MODELS, ...RECOGNISED_MODELS];

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
  const candidates = KNOWN_MINER_MODELS.filter((m) => normaliseModelName(m.reportedName) === norm
    || normaliseModelName(m.model) === norm
    || (/^M\d/.test(norm) && whatsminerFamilyKey(normaliseModelName(m.reportedName)) === whatsminerFamilyKey(norm)));
  if (firmware) return candidates.find((m) => m.firmware === firmware) ?? candidates[0];
  // prefer the stock entry when the same hardware exists under several firmwares
  return candidates.find((m) => m.firmware === 'stock' || m.firmware === 'btminer') ?? candidates[0];
}

export function getMinerModelById(id: string): MinerModel | undefined {
  return KNOWN_MINER_MODELS.find((m) => m.id === id);
}

/** Expected total chips of a unit. */
export function expectedChips(model: MinerModel): number {
  return model.hashboards * model.chipsPerBoard;
}
