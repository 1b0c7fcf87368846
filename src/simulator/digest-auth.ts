import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** HTTP Digest (RFC 2617, MD5, qop=auth) as lighttpd on Antminer control boards does it (§2.1). */

export const ANTMINER_REALM = 'antMiner Configuration';
const NONCE_TTL_MS = 10 * 60_000;

function md5(s: string): string {
  return createHash('md5').update(s).digest('hex');
}

/** Stateless nonce: issue time + HMAC, so 20,000 miners need no nonce tables. */
export function makeNonce(secret: Buffer, now: number, ip: string): string {
  const ts = now.toString(16);
  const mac = createHmac('sha256', secret).update(`${ts}:${ip}`).digest('hex').slice(0, 24);
  return `${ts}${mac}`;
}

function nonceValid(secret: Buffer, nonce: string, now: number, ip: string): boolean {
  if (nonce.length < 25) return false;
  const ts = nonce.slice(0, -24);
  const issued = Number.parseInt(ts, 16);
  if (!Number.isFinite(issued) || now - issued > NONCE_TTL_MS || issued - now > 60_000) return false;
  const expect = Buffer.from(createHmac('sha256', secret).update(`${ts}:${ip}`).digest('hex').slice(0, 24));
  const got = Buffer.from(nonce.slice(-24));
  return expect.length === got.length && timingSafeEqual(expect, got);
}

export function challengeHeader(secret: Buffer, now: number, ip: string, realm = ANTMINER_REALM): string {
  return `Digest realm="${realm}", nonce="${makeNonce(secret, now, ip)}", qop="auth"`;
}

/** Parse `Digest k="v", k2=v2` into a map. */
export function parseDigest(header: string | undefined): Record<string, string> | null {
  if (!header || !/^digest\s/i.test(header)) return null;
  const out: Record<string, string> = {};
  const re = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  let m: RegExpExecArray | null;
  const rest = header.replace(/^digest\s+/i, '');
  while ((m = re.exec(rest)) !== null) {
    const key = (m[1] ?? '').toLowerCase();
    out[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
  }
  return out;
}

/** Verify an Authorization header against user/password. */
export function verifyDigest(opts: {
  header: string | undefined; method: string; user: string; password: string; secret: Buffer; now: number; ip: string; realm?: string;
}): boolean {
  const d = parseDigest(opts.header);
  if (!d) return false;
  const realm = opts.realm ?? ANTMINER_REALM;
  if (d.username !== opts.user || d.realm !== realm || !d.nonce || !d.uri || !d.response) return false;
  if (!nonceValid(opts.secret, d.nonce, opts.now, opts.ip)) return false;
  const ha1 = md5(`${opts.user}:${realm}:${opts.password}`);
  const ha2 = md5(`${opts.method}:${d.uri}`);
  const expected = d.qop
    ? md5(`${ha1}:${d.nonce}:${d.nc ?? ''}:${d.cnonce ?? ''}:${d.qop}:${ha2}`)
    : md5(`${ha1}:${d.nonce}:${ha2}`);
  return expected === d.response.toLowerCase();
}

/** Client side: build the Authorization header for a challenge (used by the probe client and tests). */
export function digestAuthorization(opts: {
  challenge: string; method: string; uri: string; user: string; password: string; nc?: number; cnonce?: string;
}): string {
  const c = parseDigest(opts.challenge) ?? {};
  const realm = c.realm ?? '';
  const nonce = c.nonce ?? '';
  const nc = (opts.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = opts.cnonce ?? md5(String(Math.random())).slice(0, 16);
  const ha1 = md5(`${opts.user}:${realm}:${opts.password}`);
  const ha2 = md5(`${opts.method}:${opts.uri}`);
  const qop = c.qop ? 'auth' : '';
  const response = qop ? md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5(`${ha1}:${nonce}:${ha2}`);
  const parts = [`username="${opts.user}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${opts.uri}"`, `response="${response}"`];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  return `Digest ${parts.join(', ')}`;
}
