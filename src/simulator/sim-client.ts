import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { digestAuthorization } from './digest-auth';
import { aesEcbDecrypt, aesEcbEncrypt } from './devices/whatsminer';
import { md5CryptHash } from './md5-crypt';
import type { FaultKind } from './sim-types';

/**
 * Minimal clients for the simulator's protocols: used by the simulator's tests and handy for poking a running
 * fleet by hand. They implement the client side of miner-protocols.md independently of the device code paths.
 */

export interface RawRpcReply {
  /** reply text without the trailing NUL */
  text: string;
  endedWithNul: boolean;
}

/** Send one request on a 4028-style socket and read until NUL or EOF. Rejects on reset/timeout. */
export function rpcRaw(host: string, port: number, payload: string | Record<string, unknown>, timeoutMs = 5000): Promise<RawRpcReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (err) return reject(err);
      const buf = Buffer.concat(chunks);
      const nul = buf.indexOf(0);
      resolve({ text: (nul >= 0 ? buf.subarray(0, nul) : buf).toString('utf8'), endedWithNul: nul >= 0 });
    };
    socket.setTimeout(timeoutMs, () => finish(new Error('timeout')));
    socket.on('connect', () => socket.write(typeof payload === 'string' ? payload : JSON.stringify(payload)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => finish(null));
    socket.on('error', (e) => finish(e));
  });
}

export async function rpcJson(host: string, port: number, payload: string | Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>> {
  const r = await rpcRaw(host, port, payload, timeoutMs);
  return JSON.parse(r.text) as Record<string, unknown>;
}

export interface HttpResult { status: number; headers: http.IncomingHttpHeaders; body: string }

export function httpRequest(host: string, port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number }): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
    const req = http.request({
      host, port, method: opts.method ?? 'GET', path: opts.path, agent: false,
      headers: { ...(opts.headers ?? {}), ...(body ? { 'Content-Length': String(body.length) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** HTTP Digest round trip: unauthenticated request → 401 challenge → retry with Authorization (body re-sent). */
export async function digestRequest(host: string, port: number, opts: { method?: string; path: string; user: string; password: string; body?: string | Buffer; contentType?: string }): Promise<HttpResult> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = opts.contentType ? { 'Content-Type': opts.contentType } : {};
  const first = await httpRequest(host, port, { method, path: opts.path, headers, body: opts.body });
  const challenge = first.headers['www-authenticate'];
  if (first.status !== 401 || typeof challenge !== 'string') return first;
  const authorization = digestAuthorization({ challenge, method, uri: opts.path, user: opts.user, password: opts.password });
  return httpRequest(host, port, { method, path: opts.path, headers: { ...headers, Authorization: authorization }, body: opts.body });
}

/** Whatsminer v2 privileged command (§3.3): get_token, md5-crypt key/sign, AES-256-ECB. Returns the decrypted reply. */
export async function whatsminerWrite(host: string, port: number, password: string, command: Record<string, unknown>): Promise<Record<string, unknown>> {
  const tok = await rpcJson(host, port, { cmd: 'get_token' });
  const msg = tok.Msg as { time: string; salt: string; newsalt: string };
  const key = md5CryptHash(password, msg.salt);
  const sign = md5CryptHash(key + msg.time, msg.newsalt);
  const aesKey = createHash('sha256').update(key).digest();
  const data = aesEcbEncrypt(aesKey, JSON.stringify({ ...command, token: sign }));
  const reply = await rpcJson(host, port, { enc: 1, data });
  if (typeof reply.enc !== 'string') return reply;
  const plain = aesEcbDecrypt(aesKey, reply.enc);
  if (plain === null) throw new Error('cannot decrypt reply');
  return JSON.parse(plain) as Record<string, unknown>;
}

/** One Whatsminer v3 request/reply on a fresh connection (4-byte LE length framing). */
export function whatsminerV3Call(host: string, port: number, request: Record<string, unknown>, timeoutMs = 5000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => {
      const body = Buffer.from(JSON.stringify(request));
      const head = Buffer.alloc(4);
      head.writeUInt32LE(body.length, 0);
      socket.write(Buffer.concat([head, body]));
    });
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
        const len = buf.readUInt32LE(0);
        socket.destroy();
        resolve(JSON.parse(buf.subarray(4, 4 + len).toString('utf8')) as Record<string, unknown>);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('closed before a full frame')));
  });
}

/** v3 `set.*` token: first 8 chars of base64(SHA-256(cmd + password + salt + ts)). */
export function whatsminerV3Token(cmd: string, password: string, salt: string, ts: number): string {
  return createHash('sha256').update(cmd + password + salt + String(ts)).digest('base64').slice(0, 8);
}

/** One control API call (127.0.0.1:`controlPort`, control-server.ts): JSON in and out; rejects on a non-2xx answer. */
export async function simControl(controlPort: number, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await httpRequest('127.0.0.1', controlPort, {
    method, path, body: body === undefined ? undefined : JSON.stringify(body),
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  });
  const reply = JSON.parse(res.body || '{}') as Record<string, unknown>;
  if (res.status < 200 || res.status >= 300) throw new Error(`control ${method} ${path}: HTTP ${res.status} ${String(reply.error ?? '')}`);
  return reply;
}

/**
 * Puts a fault on one miner, or clears it (`on` false), through the control API (POST /miners/:ip/fault); resolves
 * with the miner's snapshot. E.g. `setSimFault(port, ip, 'ssh-intrusion')` hijacks a unit: SSH answers and its log
 * shows a brute-forced root login; `setSimFault(port, ip, 'ssh-intrusion', false)` closes SSH again (on stock
 * firmware: Braiins OS, VNish and LuxOS keep it open by design).
 */
export function setSimFault(controlPort: number, ip: string, kind: FaultKind, on = true): Promise<Record<string, unknown>> {
  return simControl(controlPort, 'POST', `/miners/${encodeURIComponent(ip)}/fault`, { kind, on });
}
