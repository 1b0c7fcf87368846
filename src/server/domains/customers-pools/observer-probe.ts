/**
 * The observer-link test (spec 2 §7 GET /api/subAccountV2/testObserverUrl): fetches the pool's observer page
 * server-side and reads the account's current hashrate from its JSON (status / hashP / unit, or a hashrate
 * field, also nested under `data`) or from its HTML (an element id="hashrate" with data-unit, or a
 * "Hashrate: <value> <unit>" text). A JSON page naming another coin than the one chosen fails; so do a page
 * without a hashrate, a non-2xx answer, a time-out and a refused connection.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { normalizeHashrateUnit } from '@shared/units';
import { NonPublicAddressError, type Resolve, publicOnlyLookup, refusedUrl } from './public-address';

export const OBSERVER_TIMEOUT_MS = 10_000;
/** Bytes of an observer page read at most. */
const MAX_BODY = 1024 * 1024;

export type ProbeResult = { ok: true; hashP: number; unit: string } | { ok: false; reason: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function numberOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Reads hashP and unit from an observer JSON answer. */
export function readObserverJson(body: unknown, coinType?: string): { hashP: number; unit: string } | null {
  const candidates: Json[] = [];
  if (isObject(body)) {
    candidates.push(body);
    if (isObject(body.data)) candidates.push(body.data);
  }
  for (const c of candidates) {
    if (c.status !== undefined && Number(c.status) !== 0) return null;
    // A page that names its coin must name the one chosen.
    if (coinType && typeof c.coin === 'string' && c.coin.toUpperCase() !== coinType.toUpperCase()) return null;
    const value = numberOf(c.hashP) ?? numberOf(c.hashrate) ?? numberOf(c.hashRate);
    const unit = normalizeHashrateUnit(c.unit ?? c.hashrateUnit ?? c.hashRateUnit);
    if (value !== null && unit !== null) return { hashP: value, unit };
  }
  return null;
}

/** Reads hashP and unit from an observer HTML page. */
export function readObserverHtml(html: string): { hashP: number; unit: string } | null {
  const tagged = /<[^>]*\bid=["']hashrate["'][^>]*>/i.exec(html);
  if (tagged) {
    const unit = normalizeHashrateUnit(/\bdata-unit=["']([^"']+)["']/i.exec(tagged[0])?.[1]);
    const rest = html.slice(tagged.index + tagged[0].length);
    const value = numberOf(/^\s*([\d.]+)\s*</.exec(rest)?.[1]);
    if (unit !== null && value !== null) return { hashP: value, unit };
  }
  const text = html.replace(/<[^>]+>/g, ' ');
  const m = /hash\s*rate\s*:?\s*([\d.]+)\s*([KMGTPE]?H\/s)/i.exec(text);
  const unit = normalizeHashrateUnit(m?.[2]);
  const value = numberOf(m?.[1]);
  return unit !== null && value !== null ? { hashP: value, unit } : null;
}

interface Answer {
  status: number;
  location: string | null;
  contentType: string;
  text: string;
}

/** The answer's body as sent, or through the decompressor its content-encoding names. */
function decoded(res: http.IncomingMessage): Readable {
  switch (String(res.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(zlib.createGunzip());
    case 'deflate':
      return res.pipe(zlib.createInflate());
    case 'br':
      return res.pipe(zlib.createBrotliDecompress());
    default:
      return res;
  }
}

/** The answer's body, decompressed, at most MAX_BODY bytes of it (the rest is not read). */
function readLimited(res: http.IncomingMessage): Promise<string> {
  const body = decoded(res);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      res.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    body.on('data', (chunk: Buffer) => {
      if (size >= MAX_BODY) return; // already answered; what is still in the pipe is dropped
      const room = MAX_BODY - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += chunk.length;
      if (size >= MAX_BODY) done();
    });
    body.on('end', done);
    body.on('error', reject);
    res.on('error', reject);
    // cut off (time-out, reset) before its end: no 'end' will come
    res.on('close', () => {
      if (!res.complete) reject(new Error('answer cut off'));
    });
  });
}

/** One GET of `url` (no redirect followed), connected through `lookup`. */
function get(url: URL, lookup: LookupFunction | undefined, signal: AbortSignal): Promise<Answer> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { Accept: 'application/json, text/html;q=0.9', 'Accept-Encoding': 'gzip, deflate, br', 'User-Agent': 'Hashfield observer test' },
        signal,
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = status >= 300 && status < 400 ? (res.headers.location ?? null) : null;
        const contentType = String(res.headers['content-type'] ?? '');
        if (location) {
          res.destroy();
          resolve({ status, location, contentType, text: '' });
          return;
        }
        readLimited(res).then((text) => resolve({ status, location, contentType, text }), reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Redirects followed at most. */
const MAX_REDIRECTS = 5;

export interface ProbeOptions {
  timeoutMs?: number;
  /** Fetch links on private, loopback and other non-public addresses too (OBSERVER_ALLOW_PRIVATE; tests, the demo). */
  allowPrivate?: boolean;
  /** How host names are resolved (tests: a resolver whose answers they choose). */
  resolve?: Resolve;
}

/**
 * Fetches the observer link (redirects followed, each hop checked, OBSERVER_TIMEOUT_MS in all) and reads the hashrate.
 * Unless allowPrivate, a link whose host is or resolves to a non-public address is refused (public-address.ts): an
 * address literal before connecting, a name by the connection's own lookup.
 */
export async function probeObserver(url: string, coinType: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs ?? OBSERVER_TIMEOUT_MS);
  const lookup = opts.allowPrivate ? undefined : publicOnlyLookup(opts.resolve);
  try {
    let target = new URL(url);
    let res: Answer | null = null;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = refusedUrl(target, opts.allowPrivate);
      if (refused) return { ok: false, reason: refused };
      res = await get(target, lookup, signal);
      if (!res.location) break;
      target = new URL(res.location, target);
      res = null;
    }
    if (!res) return { ok: false, reason: 'too many redirects' };
    if (res.status < 200 || res.status > 299) return { ok: false, reason: `HTTP ${res.status}` };
    const text = res.text;
    let found: { hashP: number; unit: string } | null = null;
    if (res.contentType.includes('json') || /^\s*[{[]/.test(text)) {
      try {
        found = readObserverJson(JSON.parse(text) as unknown, coinType);
      } catch {
        found = null;
      }
    }
    found ??= readObserverHtml(text);
    return found ? { ok: true, ...found } : { ok: false, reason: 'no hashrate on the page' };
  } catch (err) {
    if (err instanceof NonPublicAddressError) return { ok: false, reason: 'address not public' };
    const code = (err as NodeJS.ErrnoException | null)?.code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { ok: false, reason: 'host not found' };
    return { ok: false, reason: err instanceof Error ? (code ?? err.name) : 'fetch failed' };
  }
}
