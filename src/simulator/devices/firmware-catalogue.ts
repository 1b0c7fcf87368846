import type { MinerModel } from '@shared/miner-models';
import { pick } from '../rng';
import type { SimFirmware, SimMiner } from './sim-miner';

/**
 * Firmware builds handed out to simulated units. Stock dates straddle 2023-07 (new API), 20240520 (hashrate
 * adjust) and 202409 (power percent) so the agent's capability rules meet every case; Whatsminer dates straddle
 * 2022-07-29 (API v1/v2) and 2024-11-01 (API v3).
 */

const STOCK_DATES: Record<string, readonly string[]> = {
  'antminer-s19': ['20221206', '20231117', '20240711', '20241015'],
  'antminer-s19j-pro': ['20210818', '20221206', '20231117', '20240711'],
  'antminer-s19-xp': ['20221206', '20231117', '20241015'],
  'antminer-s19-xp-hyd': ['20230228', '20240523', '20241015', '20250312'],
  'antminer-s21': ['20231117', '20240426', '20240711', '20241015', '20251009'],
  'antminer-t21': ['20240426', '20240605', '20241120', '20251009'],
};

const WHATSMINER_FW: Record<string, readonly string[]> = {
  'whatsminer-m50s': ['20220422.18.REL', '20230803.11.REL', '20240624.18.REL'],
  'whatsminer-m60s': ['20230803.11.REL', '20240624.18.REL', '20251209.16.Rel2'],
};

const BRAIINS_FW: readonly string[] = ['2024-03-15-0-4d2e0f5a-24.03-plus', '2025-08-06-0-3881c51d-25.07-plus'];
const VNISH_FW: ReadonlyArray<{ version: string; built: string }> = [
  { version: '1.2.4', built: '2024-08-14 11:02:51' },
  { version: '1.2.7', built: '2025-12-22 19:12:30' },
];

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Tue Dec  6 16:12:30 CST 2022` from `20221206` (the bmminer CompileTime format, day space-padded). */
export function compileTimeOf(date: string, clock = '16:12:30'): string {
  const y = Number(date.slice(0, 4));
  const mo = Number(date.slice(4, 6));
  const d = Number(date.slice(6, 8));
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return `${DAYS[dt.getUTCDay()]} ${MONTHS[mo - 1]} ${String(d).padStart(2, ' ')} ${clock} CST ${y}`;
}

function stockVersionString(model: MinerModel, date: string, compileTime: string): string {
  // newer builds report `FR-1.12(251009-S21)`, older ones the build date string (§2.3)
  if (date < '20240101') return compileTime;
  const short = model.model.replace(/\s+Hydro$/, 'Hyd').replace(/\s+/g, '');
  return `FR-1.12(${date.slice(2)}-${short})`;
}

export function stockFirmware(model: MinerModel, date: string): SimFirmware {
  const compileTime = compileTimeOf(date);
  return { version: stockVersionString(model, date, compileTime), compileTime, date, apiVersion: '3.1' };
}

function whatsminerFirmware(fwVer: string): SimFirmware {
  const date = fwVer.slice(0, 8);
  const api = date >= '20241101' ? '3.0.2' : date >= '20220729' ? '2.0.5' : 'whatsminer v1.3';
  return { version: fwVer, compileTime: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`, date, apiVersion: api };
}

function braiinsFirmware(v: string): SimFirmware {
  const date = v.slice(0, 10).replace(/-/g, '');
  return { version: v, compileTime: v.slice(0, 10), date, apiVersion: '3.7' };
}

/** LuxOS builds (`LUXminer <version>`): version string starts with the build date `YYYY.M.D`. */
export const LUXOS_VERSIONS: readonly string[] = ['2024.11.20.151513-4f1c2a9e', '2025.4.8.220305-57b389c7'];

export function luxosFirmware(version: string): SimFirmware {
  const [y = '2025', mo = '1', d = '1'] = version.split('.');
  const date = `${y}${mo.padStart(2, '0')}${d.padStart(2, '0')}`;
  return { version, compileTime: `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')} 12:00:00`, date, apiVersion: '3.7' };
}

function vnishFirmware(v: { version: string; built: string }): SimFirmware {
  return { version: v.version, compileTime: v.built, date: v.built.slice(0, 10).replace(/-/g, ''), apiVersion: '3.1' };
}

export function initialFirmware(model: MinerModel, rng: () => number): SimFirmware {
  switch (model.firmware) {
    case 'stock': return stockFirmware(model, pick(rng, STOCK_DATES[model.id] ?? ['20231117']));
    case 'btminer': return whatsminerFirmware(pick(rng, WHATSMINER_FW[model.id] ?? ['20230803.11.REL']));
    case 'braiins': return braiinsFirmware(pick(rng, BRAIINS_FW));
    default: return vnishFirmware(pick(rng, VNISH_FW));
  }
}

function yyyymmdd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * Firmware a uploaded file would install: date from a `YYYYMMDD` in the file name (else today). Returns null when
 * the file is obviously for another make.
 */
export function firmwareFromUpload(m: SimMiner, filename: string, now: number): SimFirmware | null {
  const lower = filename.toLowerCase();
  const otherMake = m.model.make === 'Antminer' ? /whatsminer|m[356]\ds/.test(lower) : /antminer|bmminer/.test(lower);
  if (otherMake) return null;
  const found = /(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])/.exec(filename);
  const date = found ? `${found[1]}${found[2]}${found[3]}` : yyyymmdd(now);
  switch (m.model.firmware) {
    case 'stock': return stockFirmware(m.model, date);
    case 'btminer': return whatsminerFirmware(`${date}.${date >= '20241101' ? '16.Rel2' : '11.REL'}`);
    case 'braiins': return braiinsFirmware(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}-0-5a1c2e3f-${date.slice(2, 4)}.${date.slice(4, 6)}-plus`);
    default: return vnishFirmware({ version: '1.2.8', built: `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)} 12:00:00` });
  }
}

/**
 * Firmware an image streamed without a file name would install (Whatsminer API v2 upload): the image header
 * (its first 4 KB as text) names the build like a file name would (`…-20250115-…`), else today.
 */
export function firmwareFromImage(m: SimMiner, image: Buffer, now: number): SimFirmware | null {
  if (image.length === 0) return null;
  return firmwareFromUpload(m, image.subarray(0, 4096).toString('latin1'), now);
}
