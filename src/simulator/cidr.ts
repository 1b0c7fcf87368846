/** IPv4 CIDR helpers: the fleet takes the first N host addresses of a block. */

export function ipToInt(ip: string): number {
  const parts = ip.split('.').map((p) => Number(p));
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new Error(`invalid IPv4 address: ${ip}`);
  }
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

export function intToIp(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** First `count` usable host addresses of `cidr` (network and broadcast excluded for prefixes < 31). */
export function hostAddresses(cidr: string, count: number): string[] {
  const [base, prefixText] = cidr.split('/');
  const prefix = Number(prefixText ?? '32');
  if (!base || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`invalid CIDR: ${cidr}`);
  const size = 2 ** (32 - prefix);
  const network = prefix === 0 ? 0 : (ipToInt(base) & ((0xffffffff << (32 - prefix)) >>> 0)) >>> 0;
  const first = prefix >= 31 ? network : network + 1;
  const usable = prefix >= 31 ? size : size - 2;
  if (count > usable) throw new Error(`CIDR ${cidr} holds ${usable} hosts, ${count} requested`);
  const out: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = intToIp(first + i);
  return out;
}

/** Strip the IPv4-mapped IPv6 prefix Node reports on dual-stack sockets. */
export function plainIPv4(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
