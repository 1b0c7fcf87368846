import crypto from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AntminerWeb, digestAuthorization, newCnonce, parseDigestChallenge } from './antminer-web';
import { HttpError } from './http-client';

const REALM = 'antMiner Configuration';
const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** lighttpd-like digest server: fresh nonce per challenge, nc must increase per nonce. */
async function digestServer(password: string, stats: { requests: number; challenges: number; unauthenticated?: number }): Promise<number> {
  const nonces = new Map<string, number>();
  const srv = http.createServer((req, res) => {
    stats.requests++;
    if (!req.headers.authorization) stats.unauthenticated = (stats.unauthenticated ?? 0) + 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = req.headers.authorization ?? '';
      const p: Record<string, string> = {};
      for (const m of h.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) if (m[1]) p[m[1]] = m[2] ?? m[3] ?? '';
      const lastNc = p['nonce'] !== undefined ? nonces.get(p['nonce']) : undefined;
      const nc = parseInt(p['nc'] ?? '0', 16);
      const expected = md5(`${md5(`${p['username']}:${REALM}:${password}`)}:${p['nonce']}:${p['nc']}:${p['cnonce']}:auth:${md5(`${req.method}:${p['uri']}`)}`);
      if (lastNc === undefined || nc <= lastNc || p['response'] !== expected || p['username'] !== 'root') {
        stats.challenges++;
        const nonce = crypto.randomBytes(8).toString('hex');
        nonces.set(nonce, 0);
        res.writeHead(401, { 'WWW-Authenticate': `Digest realm="${REALM}", nonce="${nonce}", qop="auth"`, Server: 'lighttpd/1.4.32' });
        return res.end();
      }
      nonces.set(p['nonce'] as string, nc);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.url === '/cgi-bin/blink.cgi') return res.end(JSON.stringify({ code: JSON.parse(Buffer.concat(chunks).toString()).blink === 'true' ? 'B000' : 'B100' }));
      res.end(JSON.stringify({ minertype: 'Antminer S19j Pro', macaddr: '02:55:97:22:3A:72' }));
    });
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return (srv.address() as { port: number }).port;
}

describe('Antminer digest web client', () => {
  it('parses the challenge and builds an RFC 2617 response', () => {
    const ch = parseDigestChallenge('Digest realm="antMiner Configuration", nonce="abc", qop="auth"');
    expect(ch).toMatchObject({ realm: REALM, nonce: 'abc', qop: 'auth' });
    const a = digestAuthorization(ch!, { user: 'root', password: 'root' }, 'GET', '/cgi-bin/x.cgi', 1, 'c0ffee');
    const resp = md5(`${md5(`root:${REALM}:root`)}:abc:00000001:c0ffee:auth:${md5('GET:/cgi-bin/x.cgi')}`);
    expect(a).toContain(`response="${resp}"`);
    expect(a).toContain('nc=00000001');
  });
  it('client nonces are 16 random hex digits, none repeated across refills of the pool; a changed password signs anew', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => newCnonce()));
    expect(seen.size).toBe(2000);
    expect([...seen].every((c) => /^[0-9a-f]{16}$/.test(c))).toBe(true);
    const ch = parseDigestChallenge('Digest realm="antMiner Configuration", nonce="abc", qop="auth"')!;
    const sign = (password: string) => digestAuthorization(ch, { user: 'root', password }, 'GET', '/cgi-bin/x.cgi', 1, 'c0ffee');
    expect(sign('root')).toBe(sign('root'));
    const other = md5(`${md5(`root:${REALM}:s3cret`)}:abc:00000001:c0ffee:auth:${md5('GET:/cgi-bin/x.cgi')}`);
    expect(sign('s3cret')).toContain(`response="${other}"`);
  });
  it('calls started together share the one unauthenticated round trip that brings the challenge', async () => {
    const stats = { requests: 0, challenges: 0, unauthenticated: 0 };
    const port = await digestServer('root', stats);
    const web = new AntminerWeb('127.0.0.1', port);
    const replies = await Promise.all([web.getSystemInfo(), web.getSystemInfo(), web.getSystemInfo()]);
    expect(replies.map((r) => r['minertype'])).toEqual(['Antminer S19j Pro', 'Antminer S19j Pro', 'Antminer S19j Pro']);
    expect(stats.unauthenticated).toBe(1);
  });
  it('a unit that does not answer the first call fails the calls waiting on it with the same error', async () => {
    const silent = http.createServer(() => undefined);
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const web = new AntminerWeb('127.0.0.1', (silent.address() as { port: number }).port, { timeoutMs: 200 });
    const t0 = Date.now();
    const out = await Promise.allSettled([web.getSystemInfo(), web.getBlinkStatus()]);
    expect(out.map((o) => (o.status === 'rejected' ? (o.reason as HttpError).kind : 'ok'))).toEqual(['timeout', 'timeout']);
    expect(Date.now() - t0).toBeLessThan(1000);
    silent.closeAllConnections();
  });
  it('authenticates, then reuses the nonce with an increasing nc (one round trip per call)', async () => {
    const stats = { requests: 0, challenges: 0 };
    const port = await digestServer('root', stats);
    const web = new AntminerWeb('127.0.0.1', port);
    expect((await web.getSystemInfo())['minertype']).toBe('Antminer S19j Pro');
    const after1 = stats.requests;
    expect(after1).toBe(2);
    await web.getSystemInfo();
    await web.blink(true);
    expect(stats.requests).toBe(after1 + 2);
    expect(stats.challenges).toBe(1);
  });
  it('tries the configured credential list and remembers the one that works', async () => {
    const stats = { requests: 0, challenges: 0 };
    const port = await digestServer('S3cret!', stats);
    const web = new AntminerWeb('127.0.0.1', port, { credentials: [{ user: 'root', password: 'root' }, { user: 'root', password: 'S3cret!' }] });
    expect((await web.getSystemInfo())['macaddr']).toBe('02:55:97:22:3A:72');
    expect(web.currentCredential()?.password).toBe('S3cret!');
    const r = await web.blink(false);
    expect(r['code']).toBe('B100');
  });
  it('fails clearly with auth-failed when no credential works', async () => {
    const port = await digestServer('S3cret!', { requests: 0, challenges: 0 });
    const web = new AntminerWeb('127.0.0.1', port, { credentials: [{ user: 'root', password: 'root' }] });
    const err = await web.getSystemInfo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).kind).toBe('auth-failed');
    expect((err as HttpError).message).toMatch(/auth-failed/);
  });
});
