import net from 'node:net';
import { addDeadline, cancelDeadline, resetDeadline } from './deadlines';
import { RpcError, parseReply, rpcCommand, rpcExchange, readStatus, type RpcObject, type RpcOptions } from './cgminer-rpc';
import { aesEcbDecrypt, aesEcbEncryptZero, whatsminerV2AesKey, whatsminerV2Token, whatsminerV3Token } from './whatsminer-crypto';
import { parseTolerantJson } from './tolerant-json';

/**
 * Whatsminer clients (miner-protocols.md §3).
 * v2 (TCP 4028): cgminer-style reads + btminer-native reads (flat envelope, socket may stay open);
 * writes: get_token → md5-crypt key/sign → AES-256-ECB(SHA-256(key)) `{"enc":1,"data":…}`.
 * v3 (TCP 4433): 4-byte little-endian length + JSON; set.* commands carry ts/account/token.
 */

export const WHATSMINER_DEFAULT_V2_PASSWORD = 'admin';
export const WHATSMINER_DEFAULT_V3_ACCOUNT = { user: 'super', password: 'super' };

/** Whatsminer write refused: `can't access write cmd`, token errors, Code ≠ 131 … */
export class WhatsminerError extends Error {
  constructor(
    readonly kind: 'write-disabled' | 'auth-failed' | 'command-failed' | 'bad-reply',
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'WhatsminerError';
  }
}

interface CachedToken {
  time: string;
  salt: string;
  newsalt: string;
  fetchedAt: number;
}

export class WhatsminerV2 {
  private token: CachedToken | null = null;

  constructor(
    readonly host: string,
    readonly port: number,
    private password: string = WHATSMINER_DEFAULT_V2_PASSWORD,
    private readonly opts: RpcOptions = {},
  ) {}

  currentPassword(): string {
    return this.password;
  }

  setPassword(pw: string): void {
    if (pw !== this.password) this.token = null;
    this.password = pw;
  }

  /** cgminer-derived read (summary, pools, devs, edevs, devdetails). */
  read(command: string): Promise<RpcObject> {
    return rpcCommand(this.host, this.port, command, { ...this.opts, completeWhenJson: true });
  }

  /** btminer-native read (get_version, get_miner_info, get_psu, status, get_error_code, get_token); returns Msg. */
  async native(cmd: string, extra?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await rpcCommand(this.host, this.port, cmd, { ...this.opts, extra, completeWhenJson: true, cmdKey: 'cmd', allowError: true });
    const st = readStatus(reply);
    if (st && st.letter !== 'S' && st.letter !== 'I') throw new RpcError(st.code === 45 ? 'denied' : 'status', `${cmd}: ${st.msg || st.letter}`, st.code ?? undefined);
    const msg = reply['Msg'];
    if (msg && typeof msg === 'object' && !Array.isArray(msg)) return msg as Record<string, unknown>;
    // cgminer-style envelope for a native command (some builds): return the first section
    for (const [k, v] of Object.entries(reply)) if (k !== 'STATUS' && k !== 'id' && Array.isArray(v) && v[0] && typeof v[0] === 'object') return v[0] as Record<string, unknown>;
    return { value: msg };
  }

  private async getToken(force = false): Promise<CachedToken> {
    if (!force && this.token && Date.now() - this.token.fetchedAt < 25 * 60 * 1000) return this.token;
    const m = await this.native('get_token');
    const time = m['time'];
    const salt = m['salt'];
    const newsalt = m['newsalt'];
    if (typeof salt !== 'string' || typeof newsalt !== 'string' || time === undefined) throw new WhatsminerError('bad-reply', 'get_token: missing time/salt/newsalt');
    this.token = { time: String(time), salt, newsalt, fetchedAt: Date.now() };
    return this.token;
  }

  /** The encrypted request line of a privileged command and the AES key its reply is encrypted with. */
  async encryptedRequest(cmd: string, params: Record<string, unknown>): Promise<{ req: string; aesKey: Buffer }> {
    const tok = await this.getToken();
    const { key, sign } = whatsminerV2Token(this.password, tok);
    const aesKey = whatsminerV2AesKey(key);
    return { req: JSON.stringify({ enc: 1, data: aesEcbEncryptZero(JSON.stringify({ cmd, ...params, token: sign }), aesKey) }), aesKey };
  }

  /**
   * Privileged command. Returns the decrypted reply (STATUS S, Code 131). Token errors retry once
   * with a fresh token; `can't access write cmd` → WhatsminerError('write-disabled').
   */
  async write(cmd: string, params: Record<string, unknown> = {}, o: { expectDrop?: boolean; timeoutMs?: number } = {}): Promise<RpcObject> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const tok = await this.getToken(attempt > 0);
      const { key, sign } = whatsminerV2Token(this.password, tok);
      const aesKey = whatsminerV2AesKey(key);
      const plain = JSON.stringify({ cmd, ...params, token: sign });
      const req = JSON.stringify({ enc: 1, data: aesEcbEncryptZero(plain, aesKey) });
      let raw: string;
      try {
        raw = await rpcExchangeKeepOpen(this.host, this.port, req, { ...this.opts, timeoutMs: o.timeoutMs ?? 10000 });
      } catch (e) {
        if (o.expectDrop && e instanceof RpcError && (e.kind === 'reset' || e.kind === 'timeout' || e.kind === 'empty')) return { STATUS: 'S', Msg: 'dropped (rebooting)' };
        throw e;
      }
      let reply = parseReply(raw);
      if (typeof reply['enc'] === 'string') {
        let dec: string;
        try {
          dec = aesEcbDecrypt(reply['enc'] as string, aesKey);
        } catch {
          throw new WhatsminerError('auth-failed', `${cmd}: reply could not be decrypted (wrong password?)`);
        }
        const p = parseTolerantJson(dec);
        if (!p.ok || !p.value || typeof p.value !== 'object') throw new WhatsminerError('auth-failed', `${cmd}: reply could not be decrypted (wrong password?)`);
        reply = p.value as RpcObject;
      }
      const st = readStatus(reply);
      const msgText = typeof reply['Msg'] === 'string' ? (reply['Msg'] as string) : st?.msg ?? '';
      if (st && st.letter === 'S') return reply;
      if (/can't access write cmd/i.test(msgText)) throw new WhatsminerError('write-disabled', `${cmd}: can't access write cmd`, st?.code ?? undefined);
      if (st?.code === 135 || /token/i.test(msgText)) {
        if (attempt === 0) continue;
        throw new WhatsminerError('auth-failed', `${cmd}: ${msgText || 'check token err'}`, st?.code ?? undefined);
      }
      throw new WhatsminerError('command-failed', `${cmd}: ${msgText || st?.letter || 'error'}`, st?.code ?? undefined);
    }
    throw new WhatsminerError('auth-failed', `${cmd}: token rejected`);
  }
}

/**
 * v2 firmware upload (§3.3 `upgrade_firmware`): the privileged command is answered `Msg:"ready"` on the same
 * connection, then the client sends a 4-byte little-endian length followed by the image. The unit flashes and
 * reboots; a final status reply may come or the socket may just close — both count as accepted, an error status
 * does not.
 */
export async function whatsminerV2UploadFirmware(c: WhatsminerV2, file: Buffer, o: RpcOptions & { uploadTimeoutMs?: number } = {}): Promise<void> {
  const { req, aesKey } = await c.encryptedRequest('upgrade_firmware', {});
  const connectMs = o.connectTimeoutMs ?? 3000;
  const replyMs = o.timeoutMs ?? 10000;
  const uploadMs = o.uploadTimeoutMs ?? 120000;
  /** A complete reply (decrypted when `enc`), 'undecryptable' (wrong password), or null while incomplete. */
  const decode = (raw: string): RpcObject | 'undecryptable' | null => {
    const p = parseTolerantJson(raw);
    if (!p.ok || !p.value || typeof p.value !== 'object') return null;
    const v = p.value as RpcObject;
    if (typeof v['enc'] !== 'string') return v;
    try {
      const d = parseTolerantJson(aesEcbDecrypt(v['enc'] as string, aesKey));
      return d.ok && d.value && typeof d.value === 'object' ? (d.value as RpcObject) : 'undecryptable';
    } catch {
      return 'undecryptable';
    }
  };
  await new Promise<void>((resolve, reject) => {
    let phase: 'connect' | 'ready' | 'upload' = 'connect';
    let settled = false;
    let buf = '';
    const sock = net.connect({ host: c.host, port: c.port });
    let timer = setTimeout(() => done(new RpcError('connect-timeout', 'connect timeout')), connectMs);
    function done(err: Error | null) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err);
      else resolve();
    }
    const arm = (ms: number, what: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => done(new RpcError('timeout', `${what}: no reply within ${ms} ms`)), ms);
    };
    sock.once('connect', () => {
      phase = 'ready';
      arm(replyMs, 'upgrade_firmware');
      sock.write(req);
    });
    sock.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const reply = decode(buf);
      if (!reply) return;
      buf = '';
      if (reply === 'undecryptable') return done(new WhatsminerError('auth-failed', 'upgrade_firmware: reply could not be decrypted (wrong password?)'));
      const st = readStatus(reply);
      const msg = typeof reply['Msg'] === 'string' ? (reply['Msg'] as string) : st?.msg ?? '';
      if (phase === 'ready') {
        if (/can't access write cmd/i.test(msg)) return done(new WhatsminerError('write-disabled', "upgrade_firmware: can't access write cmd", st?.code ?? undefined));
        if (st?.letter === 'E' && (st.code === 135 || /token/i.test(msg))) return done(new WhatsminerError('auth-failed', `upgrade_firmware: ${msg}`, st.code ?? undefined));
        if (!/^ready$/i.test(msg)) return done(new WhatsminerError('command-failed', `upgrade_firmware: ${msg || st?.letter || 'no ready'}`, st?.code ?? undefined));
        phase = 'upload';
        arm(uploadMs, 'firmware upload');
        const head = Buffer.alloc(4);
        head.writeUInt32LE(file.length, 0);
        sock.write(Buffer.concat([head, file]));
        return;
      }
      if (st && st.letter !== 'S' && st.letter !== 'I') return done(new WhatsminerError('command-failed', `firmware upload: ${msg || st.letter}`, st.code ?? undefined));
      done(null);
    });
    sock.once('close', () => {
      if (phase === 'upload') done(null);
      else done(new RpcError('empty', 'connection closed before the miner was ready for the image'));
    });
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (phase === 'upload' && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) return done(null);
      done(new RpcError(err.code === 'ECONNREFUSED' ? 'refused' : 'reset', err.code ?? err.message));
    });
  });
}

/** btminer keeps sockets open: finish on NUL or complete JSON. */
function rpcExchangeKeepOpen(host: string, port: number, payload: string, o: RpcOptions): Promise<string> {
  return rpcExchange(host, port, payload, { ...o, completeWhenJson: true });
}

// ---------------------------------------------------------------- v3 (TCP 4433)

export interface V3Reply {
  code: number;
  when?: number;
  msg: unknown;
  desc?: string;
}

/**
 * Framed requests on one fresh connection, sent one after another (v3 connections are reusable):
 * 4-byte LE length + UTF-8 JSON, both ways. Resolves with one reply per request.
 */
export function v3ExchangeMany(host: string, port: number, bodies: Array<Record<string, unknown>>, o: RpcOptions = {}): Promise<V3Reply[]> {
  const connectMs = o.connectTimeoutMs ?? 3000;
  const timeoutMs = o.timeoutMs ?? 10000;
  return new Promise<V3Reply[]>((resolve, reject) => {
    let settled = false;
    const replies: V3Reply[] = [];
    const sock = net.connect({ host, port });
    let buf: Buffer = Buffer.alloc(0);
    let connected = false;
    // one shared sweep instead of a timer per socket (deadlines.ts)
    const deadline = addDeadline(connectMs, () => done(connected ? new RpcError('timeout', `no reply within ${timeoutMs} ms`) : new RpcError('connect-timeout', 'connect timeout')));
    function done(err: Error | null) {
      if (settled) return;
      settled = true;
      cancelDeadline(deadline);
      sock.destroy();
      if (err) reject(err);
      else resolve(replies);
    }
    function sendNext() {
      const body = bodies[replies.length];
      if (!body) return done(null);
      const json = Buffer.from(JSON.stringify(body), 'utf8');
      const hdr = Buffer.alloc(4);
      hdr.writeUInt32LE(json.length, 0);
      sock.write(Buffer.concat([hdr, json]));
    }
    sock.once('connect', () => {
      connected = true;
      resetDeadline(deadline, timeoutMs);
      sendNext();
    });
    sock.on('data', (c: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, c]) : c;
      while (buf.length >= 4) {
        const n = buf.readUInt32LE(0);
        if (n > 16 * 1024 * 1024) return done(new RpcError('parse', 'v3 frame too large'));
        if (buf.length < 4 + n) return;
        const p = parseTolerantJson(buf.subarray(4, 4 + n).toString('utf8'));
        buf = buf.subarray(4 + n);
        if (!p.ok || !p.value || typeof p.value !== 'object') return done(new RpcError('parse', 'v3 reply unparsable'));
        const v = p.value as Record<string, unknown>;
        replies.push({ code: Number(v['code'] ?? -1), when: typeof v['when'] === 'number' ? v['when'] : undefined, msg: v['msg'], desc: typeof v['desc'] === 'string' ? v['desc'] : undefined });
        sendNext();
        if (settled) return;
      }
    });
    sock.once('close', () => done(new RpcError(replies.length || buf.length ? 'parse' : 'empty', 'v3 connection closed before a full frame')));
    sock.on('error', (err: NodeJS.ErrnoException) => done(new RpcError(err.code === 'ECONNREFUSED' ? 'refused' : 'reset', err.code ?? err.message)));
  });
}

/** One framed request/response on a fresh connection. */
export async function v3Exchange(host: string, port: number, body: Record<string, unknown>, o: RpcOptions = {}): Promise<V3Reply> {
  const [r] = await v3ExchangeMany(host, port, [body], o);
  if (!r) throw new RpcError('empty', 'no v3 reply');
  return r;
}

export class WhatsminerV3 {
  private salt: string | null = null;

  constructor(
    readonly host: string,
    readonly port: number,
    private account: { user: string; password: string } = WHATSMINER_DEFAULT_V3_ACCOUNT,
    private readonly opts: RpcOptions = {},
  ) {}

  setAccount(a: { user: string; password: string }): void {
    this.account = a;
  }

  /** Several reads on one connection; a non-zero code throws. */
  async getMany(reqs: Array<[string, unknown]>): Promise<unknown[]> {
    const rs = await v3ExchangeMany(this.host, this.port, reqs.map(([cmd, param]) => ({ cmd, param })), this.opts);
    return rs.map((r, i) => {
      if (r.code !== 0) throw new RpcError('status', `${reqs[i]?.[0]}: code ${r.code} ${typeof r.msg === 'string' ? r.msg : ''}`, r.code);
      return r.msg;
    });
  }

  async get(cmd: string, param: unknown = null): Promise<unknown> {
    const r = await v3Exchange(this.host, this.port, { cmd, param }, this.opts);
    if (r.code !== 0) throw new RpcError('status', `${cmd}: code ${r.code} ${typeof r.msg === 'string' ? r.msg : ''}`, r.code);
    return r.msg;
  }

  private async getSalt(): Promise<string> {
    if (this.salt) return this.salt;
    const m = (await this.get('get.device.info', 'salt')) as Record<string, unknown> | null;
    const salt = m && typeof m === 'object' ? m['salt'] : undefined;
    if (typeof salt !== 'string') throw new WhatsminerError('bad-reply', 'get.device.info: no salt');
    this.salt = salt;
    return salt;
  }

  /** set.* command; encrypt=true for set.miner.pools / set.user.change_passwd. */
  async set(cmd: string, param: unknown = null, o: { encrypt?: boolean; expectDrop?: boolean } = {}): Promise<unknown> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const salt = await this.getSalt();
      const ts = Math.floor(Date.now() / 1000);
      const { token, aesKey } = whatsminerV3Token(cmd, this.account.password, salt, ts);
      const p = o.encrypt && param !== null ? aesEcbEncryptZero(JSON.stringify(param), aesKey) : param;
      let r: V3Reply;
      try {
        r = await v3Exchange(this.host, this.port, { cmd, param: p, ts, account: this.account.user, token }, this.opts);
      } catch (e) {
        if (o.expectDrop && e instanceof RpcError && (e.kind === 'reset' || e.kind === 'timeout' || e.kind === 'empty')) return 'dropped (rebooting)';
        throw e;
      }
      if (r.code === 0) return r.msg;
      const text = typeof r.msg === 'string' ? r.msg : JSON.stringify(r.msg);
      if (attempt === 0 && /salt|token|expire/i.test(text)) {
        this.salt = null;
        continue;
      }
      if (/token|password|account|permission|auth/i.test(text)) throw new WhatsminerError('auth-failed', `${cmd}: ${text}`, r.code);
      throw new WhatsminerError('command-failed', `${cmd}: code ${r.code} ${text}`, r.code);
    }
    throw new WhatsminerError('auth-failed', `${cmd}: token rejected`);
  }
}
