/**
 * Whether the server may fetch a user-given link (the observer-link test): only public internet addresses, unless
 * OBSERVER_ALLOW_PRIVATE is set. Otherwise anyone allowed to test an observer link could make the server probe the
 * farm's LAN, its own loopback services or a cloud metadata address.
 *
 * A host name is checked by the connection's own DNS lookup (publicOnlyLookup), not by a lookup before it: a name
 * whose DNS answer changes between two lookups (DNS rebinding: public for the check, 127.0.0.1 for the fetch) cannot
 * slip through, because the address checked is the address connected to.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, type LookupFunction, isIPv4, isIPv6 } from 'node:net';

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

/**
 * Why the link may not be fetched before any lookup (null: it may, its name still checked by publicOnlyLookup): not
 * http(s), or (unless allowPrivate) a non-public address literal.
 */
export function refusedUrl(url: URL, allowPrivate = false): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not http(s)';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return (isIPv4(host) || isIPv6(host)) && isNonPublicAddress(host) ? 'address not public' : null;
}

/** A host name's addresses (the system resolver; tests pass their own). */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;
const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The error of a connection refused by publicOnlyLookup. */
export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
  constructor(hostname: string) {
    super(`${hostname}: address not public`);
  }
}

/**
 * The `lookup` of an http(s) request that may reach public addresses only: it resolves the name once and fails the
 * connection when any of its addresses is not public (NonPublicAddressError), else connects to those addresses.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? found.filter((a) => a.family === family) : found;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname}: host not found`), { code: 'ENOTFOUND' }), '', 0);
        } else if (found.some((a) => isNonPublicAddress(a.address))) {
          callback(new NonPublicAddressError(hostname), '', 0);
        } else if (options.all) {
          (callback as unknown as (err: null, all: Array<{ address: string; family: number }>) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
