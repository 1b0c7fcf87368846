/**
 * Hashrate units and address checks shared by server, agent and client.
 * Pure and isomorphic: no DOM, no node:* imports.
 *
 * Spec 1 §9: hashrate factors relative to GH/s.
 * Spec 1 §5: unsupported hashrate units are logged and give null;
 *            a helper flags addresses ending in a government-style domain.
 * Spec 2 §5: pool URLs must not contain the words gov or dhs.
 */

export const HASHRATE_UNITS = ['H/s', 'KH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'] as const;

export type HashrateUnit = (typeof HASHRATE_UNITS)[number];

/** Power of ten of each unit relative to GH/s (GH/s = 10^0). */
const UNIT_EXPONENT: Readonly<Record<HashrateUnit, number>> = {
  'H/s': -9,
  'KH/s': -6,
  'MH/s': -3,
  'GH/s': 0,
  'TH/s': 3,
  'PH/s': 6,
  'EH/s': 9,
};

/** Factor of each unit relative to GH/s, exactly as spec 1 §9. */
export const HASHRATE_FACTORS: Readonly<Record<HashrateUnit, number>> = {
  'H/s': 1e-9,
  'KH/s': 1e-6,
  'MH/s': 0.001,
  'GH/s': 1,
  'TH/s': 1000,
  'PH/s': 1e6,
  'EH/s': 1e9,
};

const UNIT_LOOKUP: ReadonlyMap<string, HashrateUnit> = new Map(
  HASHRATE_UNITS.flatMap((unit): [string, HashrateUnit][] => {
    const upper = unit.toUpperCase();
    return [
      [upper, unit],
      [upper.replace('/S', ''), unit],
      [upper.replace('/S', 'PS'), unit],
    ];
  }),
);

/** True when `unit` is exactly one of the canonical spellings ('TH/s', …). */
export function isHashrateUnit(unit: unknown): unit is HashrateUnit {
  return typeof unit === 'string' && (HASHRATE_UNITS as readonly string[]).includes(unit);
}

/**
 * Canonical unit for a spelling such as 'TH/s', 'th/s', 'TH', 'THps' (case-insensitive,
 * surrounding blanks ignored). Returns null for anything else, without logging.
 */
export function normalizeHashrateUnit(unit: unknown): HashrateUnit | null {
  if (typeof unit !== 'string') return null;
  return UNIT_LOOKUP.get(unit.trim().toUpperCase()) ?? null;
}

function resolveUnit(unit: unknown, fn: string): HashrateUnit | null {
  const resolved = normalizeHashrateUnit(unit);
  if (resolved === null) {
    console.error(`[units] ${fn}: unsupported hashrate unit ${JSON.stringify(unit)}`);
  }
  return resolved;
}

/** Multiplies or divides by an exact power of ten, which keeps results correctly rounded. */
function scaleByPowerOfTen(value: number, exponent: number): number {
  if (exponent === 0) return value;
  return exponent > 0 ? value * 10 ** exponent : value / 10 ** -exponent;
}

/**
 * Converts a hashrate between units. An unsupported unit (either side) is logged with
 * console.error and gives null (spec 1 §5). A non-finite value gives null as well.
 */
export function convertHashrate(value: number, fromUnit: string, toUnit: string): number | null {
  const from = resolveUnit(fromUnit, 'convertHashrate');
  const to = resolveUnit(toUnit, 'convertHashrate');
  if (from === null || to === null) return null;
  if (!Number.isFinite(value)) return null;
  return scaleByPowerOfTen(value, UNIT_EXPONENT[from] - UNIT_EXPONENT[to]);
}

/** Converts a hashrate to GH/s; null (and a logged error) for an unsupported unit. */
export function toGhs(value: number, unit: string): number | null {
  const from = resolveUnit(unit, 'toGhs');
  if (from === null) return null;
  if (!Number.isFinite(value)) return null;
  return scaleByPowerOfTen(value, UNIT_EXPONENT[from]);
}

export interface HashrateValue {
  value: number;
  unit: HashrateUnit;
}

/**
 * Picks a readable unit for a hashrate given in GH/s: the largest unit in which the
 * magnitude is at least 1 (H/s for anything smaller, EH/s is the top). Zero and
 * non-finite input give `{ value: 0, unit: 'TH/s' }`. Negative values keep their sign.
 */
export function autoHashrate(ghs: number): HashrateValue {
  // Zero (a miner not hashing) reads in TH/s, the unit today's miners are rated in: '0.00 TH/s' in a column of TH/s
  // figures, not '0.00 GH/s', which reads like a small hashrate.
  if (!Number.isFinite(ghs) || ghs === 0) return { value: 0, unit: 'TH/s' };
  const magnitude = Math.abs(ghs);
  for (let i = HASHRATE_UNITS.length - 1; i >= 0; i -= 1) {
    const unit = HASHRATE_UNITS[i] as HashrateUnit;
    const exponent = UNIT_EXPONENT[unit];
    if (scaleByPowerOfTen(magnitude, -exponent) >= 1 || i === 0) {
      return { value: scaleByPowerOfTen(ghs, -exponent), unit };
    }
  }
  return { value: ghs, unit: 'GH/s' };
}

/**
 * Extracts the lower-cased host name from a host, host:port, URL or pool address such as
 * `stratum+tcp://user@pool.example.gov.cn:3333/path`. Returns '' when nothing usable is found.
 */
export function extractHost(address: string): string {
  let rest = address.trim().toLowerCase();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  rest = rest.split(/[/?#\s]/, 1)[0] ?? '';
  const at = rest.lastIndexOf('@');
  if (at >= 0) rest = rest.slice(at + 1);
  if (rest.startsWith('[')) return ''; // IPv6 literal: never a domain
  rest = rest.replace(/:\d*$/, '');
  return rest.replace(/\.+$/, '');
}

/** Top-level labels reserved for governments and the military. */
const GOVERNMENT_TLDS: ReadonlySet<string> = new Set(['gov', 'mil']);

/**
 * Second-level labels used by governments under a country-code top-level domain,
 * e.g. gov.cn, gov.uk, gob.mx, gouv.fr, go.jp, govt.nz, mil.ru, gc.ca, gv.at.
 */
const GOVERNMENT_SECOND_LEVEL: ReadonlySet<string> = new Set(['gov', 'gob', 'gouv', 'govt', 'go', 'mil', 'gc', 'gv']);

/** Full suffixes that are government domains without following the patterns above. */
const GOVERNMENT_SUFFIXES: readonly string[] = ['bund.de', 'admin.ch', 'europa.eu', 'govt.nz', 'gov.scot', 'gov.wales'];

/**
 * True when a host (or URL / pool address) ends in a government-style domain:
 * `.gov`, `.mil`, `.gov.<cc>` (gov.cn, gov.uk …), `.gob.<cc>`, `.gouv.<cc>`, `.go.<cc>`,
 * `.govt.<cc>`, `.mil.<cc>`, `.gc.ca`, `.gv.at` and a few national ones (bund.de, admin.ch, europa.eu).
 * IP addresses are never flagged.
 */
export function isGovernmentAddress(host: string): boolean {
  const name = extractHost(host);
  if (name === '' || /^[\d.]+$/.test(name)) return false;
  const labels = name.split('.');
  const last = labels[labels.length - 1] ?? '';
  if (GOVERNMENT_TLDS.has(last)) return true;
  if (labels.length >= 2) {
    const second = labels[labels.length - 2] ?? '';
    if (/^[a-z]{2}$/.test(last) && GOVERNMENT_SECOND_LEVEL.has(second)) return true;
  }
  return GOVERNMENT_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** Words that a pool or observer URL must not contain (spec 2 §5). */
export const SENSITIVE_POOL_WORDS: readonly string[] = ['gov', 'dhs'];

/**
 * True when a pool or observer URL contains one of the sensitive words gov or dhs,
 * anywhere in the text and in any letter case (spec 2 §5: "must not contain the words gov or dhs").
 */
export function containsSensitivePoolWord(url: string): boolean {
  const lower = url.toLowerCase();
  return SENSITIVE_POOL_WORDS.some((word) => lower.includes(word));
}
