import type { MinerPool, NetworkMode, PoolStatus } from '@shared/schemas/miner-snapshot';

/** Small coercion helpers for miner replies (numbers as strings, "a-b-c-d" temps, units …). */

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Number from a number or numeric string ("3250 W" → 3250, "inf"/"nan"/"" → 0). */
export function num(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i.exec(v);
    if (!m || !m[1]) return 0;
    const n = Number(m[1]);
    return Number.isFinite(n) ? n : 0;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

export function nonNeg(v: unknown): number {
  return Math.max(0, num(v));
}

export function int(v: unknown): number {
  return Math.max(0, Math.round(num(v)));
}

export function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

export function bool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.toLowerCase() === 'true' || v === '1' || v.toLowerCase() === 'y';
  return typeof v === 'number' ? v !== 0 : false;
}

/** "55-53-68-69" → [55,53,68,69] without zeros; arrays of numbers likewise. */
export function temps(v: unknown): number[] {
  const out: number[] = [];
  if (Array.isArray(v)) {
    for (const x of v) {
      const t = num(x);
      if (t > 0 && t < 200) out.push(t);
    }
    return out;
  }
  if (typeof v === 'string') {
    // "55-53-68-69": plain integers are read without splitting; anything else goes through num()
    let start = 0;
    for (let i = 0; i <= v.length; i++) {
      if (i < v.length && v.charCodeAt(i) !== 45 /* - */) continue;
      const t = plainInt(v, start, i) ?? num(v.slice(start, i));
      if (t > 0 && t < 200) out.push(t);
      start = i + 1;
    }
    return out;
  }
  const n = num(v);
  if (n > 0 && n < 200) out.push(n);
  return out;
}

/** The unsigned decimal integer s[from, to) (1–6 digits), else null. */
function plainInt(s: string, from: number, to: number): number | null {
  if (to <= from || to - from > 6) return null;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return null;
    n = n * 10 + c;
  }
  return n;
}

/** Factor to convert a value in `unit` to GH/s. Unknown/missing unit → GH (miner-protocols.md §10.3). */
export function toGhsFactor(unit: string | undefined): number {
  // the spellings firmware sends (checked first: called several times per miner per cycle)
  if (unit === 'GH' || unit === 'GH/s' || unit === undefined) return 1;
  if (unit === 'TH' || unit === 'TH/s') return 1e3;
  if (unit === 'MH' || unit === 'MH/s') return 1e-3;
  const u = unit.trim().toUpperCase().replace(/\/S$/, '').replace(/S$/, '');
  switch (u) {
    case 'H':
      return 1e-9;
    case 'KH':
      return 1e-6;
    case 'MH':
      return 1e-3;
    case 'GH':
      return 1;
    case 'TH':
      return 1e3;
    case 'PH':
      return 1e6;
    default:
      return 1;
  }
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

const MONTHS: Record<string, string> = { jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06', jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12' };
const TZ: Record<string, string> = { CST: '+08:00', UTC: 'Z', GMT: 'Z', HKT: '+08:00', MSK: '+03:00' };

/**
 * Firmware build time → ISO 8601 keeping the firmware's own offset (so the date part is the firmware date):
 * "Tue Dec  6 16:12:30 CST 2022" → "2022-12-06T16:12:30+08:00" (Bitmain builds in China time);
 * "2025-12-22 19:12:30" → "2025-12-22T19:12:30Z"; "20230803.11.REL" → "2023-08-03T00:00:00Z";
 * BOS "2025-08-06-0-3881c51d-25.07-plus" → "2025-08-06T00:00:00Z". Unknown → null.
 */
export function parseCompileTime(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const s = raw.replace(/^'+|'+$/g, '').trim();
  let m = /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+([A-Z]{2,5})?\s*(\d{4})$/.exec(s);
  if (m) {
    const mon = MONTHS[(m[1] ?? '').toLowerCase()];
    if (!mon) return null;
    const off = TZ[m[6] ?? 'UTC'] ?? 'Z';
    return `${m[7]}-${mon}-${(m[2] ?? '').padStart(2, '0')}T${(m[3] ?? '').padStart(2, '0')}:${m[4]}:${m[5]}${off}`;
  }
  m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
  m = /^(\d{4})(\d{2})(\d{2})(?:\.|$)/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`;
  m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`;
  m = /\b(20\d{2})(\d{2})(\d{2})\b/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}T00:00:00Z`;
  return null;
}

export function poolStatus(v: unknown): PoolStatus {
  const s = str(v).toLowerCase();
  if (s === 'alive' || s === 'active' || s === 'working') return 'alive';
  if (s === 'dead' || s === 'rejecting' || s === 'disabled' || s === 'offline') return 'dead';
  return 'unknown';
}

/** Canonical pool URL for whitelist comparison: lower case, no scheme, no trailing slash. */
export function poolKey(url: string): string {
  return url.trim().toLowerCase().replace(/^[a-z0-9+.-]+:\/\//, '').replace(/\/+$/, '');
}

/** cgminer POOLS → MinerPool[] (max 3, in priority order, DevFee pools dropped). */
export function cgPools(section: unknown): MinerPool[] {
  const rows = arr(section).map(obj);
  rows.sort((a, b) => num(a['Priority'] ?? a['POOL']) - num(b['Priority'] ?? b['POOL']));
  return rows
    .filter((p) => str(p['URL']).toLowerCase() !== 'devfee' && str(p['User']).toLowerCase() !== 'devfee')
    .slice(0, 3)
    .map((p) => ({
      url: str(p['URL']),
      user: str(p['User']),
      status: str(p['URL']) === '' ? 'unknown' : poolStatus(p['Status']),
      active: bool(p['Stratum Active']),
      accepted: int(p['Accepted']),
      rejected: int(p['Rejected']),
    }));
}

/** Network mode from "DHCP"/"Static" (Antminer nettype), "dhcp"/"static" (Whatsminer proto) or a dhcp boolean (VNish). */
export function networkMode(v: unknown): NetworkMode | undefined {
  if (typeof v === 'boolean') return v ? 'dhcp' : 'static';
  const s = str(v).trim().toLowerCase();
  if (s === 'dhcp') return 'dhcp';
  if (s === 'static') return 'static';
  return undefined;
}

export function upperMac(v: unknown): string {
  return str(v).trim().toUpperCase();
}

/** Worker name with the task's suffix: user.<ip with dots as x> | user.<sn> | user. */
export function workerWithSuffix(user: string, suffix: 'ip' | 'sn' | 'none', ip: string, sn: string): string {
  if (suffix === 'ip') return `${user}.${ip.replace(/\./g, 'x')}`;
  if (suffix === 'sn' && sn) return `${user}.${sn}`;
  return user;
}
