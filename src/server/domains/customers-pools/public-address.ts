/**
 * Whether the server may fetch a user-given link (the observer-link test): only public internet addresses, unless
 * OBSERVER_ALLOW_PRIVATE is set. Otherwise anyone allowed to test an observer link could make the server probe the
 * farm's LAN, its own loopback services or a cloud metadata address.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const V4: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const V6: [string, number][] = [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]];

const blocked = new BlockList();
for (const [a, n] of V4) blocked.addSubnet(a, n, 'ipv4');
for (const [a, n] of V6) blocked.addSubnet(a, n, 'ipv6');

/** An address of a private, loopback, link-local, shared, documentation, multicast or reserved range. */
export function isNonPublicAddress(address: string): boolean {
  if (isIPv4(address)) return blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/** Why the link's host may not be fetched (null: it may): not http(s), unresolvable, or a non-public address. */
export async function refusedHost(url: URL): Promise<string | null> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not http(s)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIPv4(host) || isIPv6(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return 'host not found';
  }
  return addresses.length === 0 || addresses.some(isNonPublicAddress) ? 'address not public' : null;
}
