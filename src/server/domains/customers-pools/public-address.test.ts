import { describe, expect, it } from 'vitest';
import { isNonPublicAddress, refusedHost } from './public-address';

describe('public addresses only for user-given links', () => {
  it('tells non-public addresses from public ones', () => {
    for (const a of ['127.0.0.1', '127.20.0.5', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not-an-ip']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '47.91.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isNonPublicAddress(a), a).toBe(false);
  });

  it('refuses other schemes, loopback names and private literals; lets a public literal through', async () => {
    expect(await refusedHost(new URL('ftp://8.8.8.8/x'))).toBe('not http(s)');
    expect(await refusedHost(new URL('http://localhost:8080/observer'))).toBe('address not public');
    expect(await refusedHost(new URL('http://[::1]/observer'))).toBe('address not public');
    expect(await refusedHost(new URL('http://169.254.169.254/latest/meta-data'))).toBe('address not public');
    expect(await refusedHost(new URL('https://8.8.8.8/observer'))).toBeNull();
    expect(await refusedHost(new URL('http://no-such-host.invalid/observer'))).toBe('host not found');
  });
});
