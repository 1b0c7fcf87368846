import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { NonPublicAddressError, type Resolve, isNonPublicAddress, publicOnlyLookup, refusedUrl } from './public-address';

describe('public addresses only for user-given links', () => {
  it('tells non-public addresses from public ones', () => {
    for (const a of ['127.0.0.1', '127.20.0.5', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '47.91.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isNonPublicAddress(a), a).toBe(false);
  });

  it('refuses other schemes and non-public address literals before any lookup; lets names and public literals through', () => {
    expect(refusedUrl(new URL('ftp://8.8.8.8/x'))).toBe('not http(s)');
    expect(refusedUrl(new URL('http://[::1]/observer'))).toBe('address not public');
    expect(refusedUrl(new URL('http://169.254.169.254/latest/meta-data'))).toBe('address not public');
    expect(refusedUrl(new URL('http://10.0.0.1/o'))).toBe('address not public');
    expect(refusedUrl(new URL('https://8.8.8.8/observer'))).toBeNull();
    // a name is checked by the connection's own lookup
    expect(refusedUrl(new URL('http://localhost:8080/observer'))).toBeNull();
  });

  it("the connection's lookup answers public addresses only, as net expects (one address, or all of them)", async () => {
    const resolveTo = (...addresses: string[]): Resolve => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const ask = (lookup: LookupFunction, options: { all?: boolean; family?: number }) =>
      new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((resolve) =>
        lookup('observer.example', options as never, ((err: NodeJS.ErrnoException | null, a: unknown, f?: number) => resolve({ err, result: options.all ? a : [a, f] })) as never),
      );
    const pub = publicOnlyLookup(resolveTo('8.8.8.8', '2606:4700:4700::1111'));
    expect(await ask(pub, {})).toEqual({ err: null, result: ['8.8.8.8', 4] });
    expect(await ask(pub, { family: 6 })).toEqual({ err: null, result: ['2606:4700:4700::1111', 6] });
    expect((await ask(pub, { all: true })).result).toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    // one private address among public ones is enough to refuse the name
    expect((await ask(publicOnlyLookup(resolveTo('8.8.8.8', '127.0.0.1')), {})).err).toBeInstanceOf(NonPublicAddressError);
    expect((await ask(publicOnlyLookup(resolveTo('fd00::1')), { all: true })).err).toBeInstanceOf(NonPublicAddressError);
    expect((await ask(publicOnlyLookup(resolveTo()), {})).err?.code).toBe('ENOTFOUND');
  });
});
