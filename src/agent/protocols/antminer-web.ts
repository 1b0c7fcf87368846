import crypto from 'node:crypto';
import type { MinerCredential } from '@shared/schemas/agent-uplink';
import { HttpError, httpRequest, jsonBody, multipartBody, type HttpResponse } from './http-client';

/**
 * Antminer stock web (CGI) client: HTTP Digest (MD5, qop=auth) per miner-protocols.md §2.
 * The last challenge is kept per miner and reused with an incrementing nonce count (one round trip per
 * call instead of two); a 401 (stale or not) re-challenges once, then the next configured credential is
 * tried. When no credential works the call fails with HttpError('auth-failed').
 */

export const ANTMINER_DEFAULT_CREDENTIALS: MinerCredential[] = [{ user: 'root', password: 'root' }];

export interface DigestChallenge {
  realm: string;
  nonce: string;
  qop?: string;
  opaque?: string;
  algorithm?: string;
  stale?: boolean;
}

/** Parses a `WWW-Authenticate: Digest …` header (quoted or token values). */
export function parseDigestChallenge(header: string | string[] | undefined): DigestChallenge | null {
  const h = Array.isArray(header) ? header.find((x) => /^\s*digest/i.test(x)) : header;
  if (!h || !/^\s*digest\s/i.test(h)) return null;
  const params: Record<string, string> = {};
  const re = /([a-zA-Z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(h.replace(/^\s*digest\s+/i, '')))) {
    if (m[1]) params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
  }
  if (params['nonce'] === undefined || params['realm'] === undefined) return null;
  return {
    realm: params['realm'],
    nonce: params['nonce'],
    qop: params['qop'],
    opaque: params['opaque'],
    algorithm: params['algorithm'],
    stale: params['stale']?.toLowerCase() === 'true',
  };
}

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

/**
 * HA1 of a credential in a realm (md5 of user:realm:password), kept: the same few pairs sign every request of a
 * cycle. Bounded (a farm has a handful of credentials and realms; anything past that is hashed each time).
 */
const ha1Cache = new Map<string, string>();
function ha1Of(cred: MinerCredential, realm: string): string {
  const key = `${cred.user}\u0000${realm}\u0000${cred.password}`;
  let h = ha1Cache.get(key);
  if (h === undefined) {
    h = md5(`${cred.user}:${realm}:${cred.password}`);
    if (ha1Cache.size < 64) ha1Cache.set(key, h);
  }
  return h;
}

/** Random bytes for client nonces, drawn 4 KiB at a time (one call to the system's generator per 512 nonces). */
let noncePool = Buffer.alloc(0);
let noncePos = 0;
/** A fresh random client nonce (16 hex digits). */
export function newCnonce(): string {
  if (noncePos + 8 > noncePool.length) {
    noncePool = crypto.randomBytes(4096);
    noncePos = 0;
  }
  noncePos += 8;
  return noncePool.toString('hex', noncePos - 8, noncePos);
}

/** Builds the `Authorization: Digest …` value (RFC 2617, MD5, qop=auth when offered). */
export function digestAuthorization(
  ch: DigestChallenge,
  cred: MinerCredential,
  method: string,
  uri: string,
  nc: number,
  cnonce: string = newCnonce(),
): string {
  const ha1 = ha1Of(cred, ch.realm);
  const ha2 = md5(`${method}:${uri}`);
  const qopAuth = ch.qop ? ch.qop.split(',').map((q) => q.trim()).includes('auth') : false;
  const ncHex = nc.toString(16).padStart(8, '0');
  const response = qopAuth ? md5(`${ha1}:${ch.nonce}:${ncHex}:${cnonce}:auth:${ha2}`) : md5(`${ha1}:${ch.nonce}:${ha2}`);
  const parts = [`username="${cred.user}"`, `realm="${ch.realm}"`, `nonce="${ch.nonce}"`, `uri="${uri}"`, `response="${response}"`];
  if (ch.algorithm) parts.push(`algorithm=${ch.algorithm}`);
  if (ch.opaque !== undefined) parts.push(`opaque="${ch.opaque}"`);
  if (qopAuth) parts.push('qop=auth', `nc=${ncHex}`, `cnonce="${cnonce}"`);
  return `Digest ${parts.join(', ')}`;
}

interface HostAuthState {
  challenge: DigestChallenge | null;
  nc: number;
  /** index into the credential list that worked last */
  credIdx: number;
}

export interface AntminerWebOptions {
  credentials?: MinerCredential[];
  timeoutMs?: number;
}

export class AntminerWeb {
  private state: HostAuthState = { challenge: null, nc: 0, credIdx: 0 };
  /** the unauthenticated request under way that will bring the digest challenge */
  private probing: Promise<HttpResponse> | null = null;
  private credentials: MinerCredential[];
  private timeoutMs: number;

  constructor(
    readonly host: string,
    readonly port: number,
    o: AntminerWebOptions = {},
  ) {
    this.credentials = o.credentials && o.credentials.length > 0 ? o.credentials : ANTMINER_DEFAULT_CREDENTIALS;
    this.timeoutMs = o.timeoutMs ?? 8000;
  }

  /** Replaces the credential list (config change); keeps the cached challenge. */
  setCredentials(creds: MinerCredential[]): void {
    this.credentials = creds.length > 0 ? creds : ANTMINER_DEFAULT_CREDENTIALS;
    this.state.credIdx = 0;
  }

  /** The credential that authenticated last (after a successful call). */
  currentCredential(): MinerCredential | undefined {
    return this.credentials[this.state.credIdx];
  }

  private async send(method: string, path: string, body: string | Buffer | undefined, contentType: string | undefined, auth: string | undefined, timeoutMs: number, keep?: 'tail'): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (auth) headers['Authorization'] = auth;
    if (contentType) headers['Content-Type'] = contentType;
    return httpRequest(this.host, this.port, path, { method, headers, body, timeoutMs, keep });
  }

  /** Authenticated request; throws HttpError('auth-failed') when no configured credential is accepted. */
  /** keep 'tail': a long body's end is kept rather than its start (a log: http-client.ts HttpRequestOptions.keep). */
  async request(method: string, path: string, o: { body?: string | Buffer; contentType?: string; timeoutMs?: number; keep?: 'tail' } = {}): Promise<HttpResponse> {
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    const st = this.state;
    // calls started together (the detail reads) share one unauthenticated round trip for the challenge
    if (!st.challenge && this.probing) {
      try {
        await this.probing;
      } catch (e) {
        // the unit did not answer the first call: it will not answer this one either
        if (e instanceof HttpError && e.kind !== 'http-status' && e.kind !== 'bad-reply') throw e;
      }
    }
    if (!st.challenge) {
      const probe = this.send(method, path, o.body, o.contentType, undefined, timeoutMs, o.keep).then((res) => {
        if (res.status === 401) {
          st.challenge = parseDigestChallenge(res.headers['www-authenticate']);
          st.nc = 0;
        }
        return res;
      });
      this.probing = probe;
      let res: HttpResponse;
      try {
        res = await probe;
      } finally {
        if (this.probing === probe) this.probing = null;
      }
      if (res.status !== 401) return res;
      if (!st.challenge) throw new HttpError('auth-failed', 'HTTP 401 without a digest challenge', 401);
    }
    const order = [st.credIdx, ...this.credentials.map((_, i) => i).filter((i) => i !== st.credIdx)];
    for (const idx of order) {
      const cred = this.credentials[idx];
      if (!cred) continue;
      // each credential: up to two tries (the second with a fresh nonce from the 401)
      for (let attempt = 0; attempt < 2; attempt++) {
        const ch = st.challenge as DigestChallenge;
        st.nc += 1;
        const res = await this.send(method, path, o.body, o.contentType, digestAuthorization(ch, cred, method, path, st.nc), timeoutMs, o.keep);
        if (res.status !== 401) {
          st.credIdx = idx;
          return res;
        }
        const next = parseDigestChallenge(res.headers['www-authenticate']);
        if (!next) throw new HttpError('auth-failed', 'HTTP 401 without a digest challenge', 401);
        const fresh = next.nonce !== ch.nonce;
        st.challenge = next;
        st.nc = 0;
        // same nonce again or a non-stale new one after a fresh nonce: the password is wrong
        if (attempt === 0 && (next.stale || fresh)) continue;
        break;
      }
    }
    throw new HttpError('auth-failed', `auth-failed: none of ${this.credentials.length} configured credential(s) accepted`, 401);
  }

  /** GET/POST returning parsed JSON; non-2xx → HttpError('http-status'). */
  async json<T = Record<string, unknown>>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    const res = await this.request(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : 'application/json',
      timeoutMs,
    });
    if (res.status < 200 || res.status >= 300) throw new HttpError('http-status', `${path}: HTTP ${res.status}`, res.status);
    return jsonBody<T>(res);
  }

  getSystemInfo() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/get_system_info.cgi');
  }
  getMinerConf() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/get_miner_conf.cgi');
  }
  /** Writes a config subset; answers {stats, code:'M000', msg}. Slow on real units (bmminer restarts). */
  setMinerConf(conf: Record<string, unknown>) {
    return this.json<Record<string, unknown>>('POST', '/cgi-bin/set_miner_conf.cgi', conf, Math.max(this.timeoutMs, 30000));
  }
  getBlinkStatus() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/get_blink_status.cgi');
  }
  blink(on: boolean) {
    return this.json<Record<string, unknown>>('POST', '/cgi-bin/blink.cgi', { blink: on ? 'true' : 'false' });
  }
  summaryCgi() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/summary.cgi');
  }
  minerType() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/miner_type.cgi');
  }
  /** Reboot; the unit may drop the connection before answering (treated as accepted by callers). */
  reboot() {
    return this.request('POST', '/cgi-bin/reboot.cgi', { timeoutMs: 5000 });
  }
  resetConf() {
    return this.request('POST', '/cgi-bin/reset_conf.cgi', { timeoutMs: 15000 });
  }
  passwd(curPwd: string, newPwd: string) {
    return this.json<Record<string, unknown>>('POST', '/cgi-bin/passwd.cgi', { curPwd, newPwd, confirmPwd: newPwd });
  }
  setNetworkConf(conf: Record<string, unknown>) {
    return this.json<Record<string, unknown>>('POST', '/cgi-bin/set_network_conf.cgi', conf);
  }
  getNetworkInfo() {
    return this.json<Record<string, unknown>>('GET', '/cgi-bin/get_network_info.cgi');
  }
  async upgrade(file: Buffer, fileName: string, keepSettings: boolean): Promise<Record<string, unknown>> {
    const mp = multipartBody({ keep_settings: keepSettings ? '1' : '0', filename: fileName }, { field: 'file', name: fileName, data: file });
    const res = await this.request('POST', '/cgi-bin/upgrade.cgi', { body: mp.body, contentType: mp.contentType, timeoutMs: Math.max(this.timeoutMs, 120000) });
    if (res.status < 200 || res.status >= 300) throw new HttpError('http-status', `upgrade.cgi: HTTP ${res.status}`, res.status);
    return jsonBody<Record<string, unknown>>(res);
  }
}
