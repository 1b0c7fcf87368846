/**
 * IPv4 range expansion for scan ranges: `ipBegin`–`ipEnd` (inclusive), a CIDR (`10.0.0.0/22`, network and
 * broadcast addresses excluded below /31), or a single address. Works on integers so a /16 costs nothing
 * until iterated.
 */

export function ipv4ToInt(ip: string): number | null {
  const parts = ip.trim().split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

export function intToIpv4(n: number): string {
  return `${Math.floor(n / 16777216) % 256}.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

export interface IntRange {
  first: number;
  last: number;
}

/** Parses one range spec; throws on malformed input (config validation surfaces it). */
export function parseRange(ipBegin: string, ipEnd?: string): IntRange {
  const b = ipBegin.trim();
  if (b.includes('/')) {
    const [base, prefixText] = b.split('/');
    const baseInt = ipv4ToInt(base ?? '');
    const prefix = Number(prefixText);
    if (baseInt === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`invalid CIDR: ${b}`);
    const size = 2 ** (32 - prefix);
    const network = Math.floor(baseInt / size) * size;
    if (prefix >= 31) return { first: network, last: network + size - 1 };
    return { first: network + 1, last: network + size - 2 };
  }
  const first = ipv4ToInt(b);
  if (first === null) throw new Error(`invalid IPv4 address: ${b}`);
  if (ipEnd === undefined || ipEnd.trim() === '') return { first, last: first };
  const last = ipv4ToInt(ipEnd);
  if (last === null) throw new Error(`invalid IPv4 address: ${ipEnd}`);
  if (last < first) throw new Error(`range end ${ipEnd} is before ${ipBegin}`);
  return { first, last };
}

/** Merges ranges (overlaps counted once) and returns them sorted. */
export function mergeRanges(ranges: IntRange[]): IntRange[] {
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  const out: IntRange[] = [];
  for (const r of sorted) {
    const prev = out[out.length - 1];
    if (prev && r.first <= prev.last + 1) prev.last = Math.max(prev.last, r.last);
    else out.push({ ...r });
  }
  return out;
}

export function rangeSize(ranges: IntRange[]): number {
  return ranges.reduce((s, r) => s + (r.last - r.first + 1), 0);
}

/** Lazily yields every address of the (merged) ranges. */
export function* iterateRanges(ranges: IntRange[]): Generator<string> {
  for (const r of mergeRanges(ranges)) for (let n = r.first; n <= r.last; n++) yield intToIpv4(n);
}

/** Convenience: expand `{ipBegin, ipEnd?}` specs into range objects. */
export function rangesFromSpecs(specs: Array<{ ipBegin: string; ipEnd?: string }>): IntRange[] {
  return mergeRanges(specs.map((s) => parseRange(s.ipBegin, s.ipEnd)));
}
