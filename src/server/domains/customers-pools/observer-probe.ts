/**
 * The observer-link test (spec 2 §7 GET /api/subAccountV2/testObserverUrl): fetches the pool's observer page
 * server-side and reads the account's current hashrate from its JSON (status / hashP / unit, or a hashrate
 * field, also nested under `data`) or from its HTML (an element id="hashrate" with data-unit, or a
 * "Hashrate: <value> <unit>" text). A JSON page naming another coin than the one chosen fails; so do a page
 * without a hashrate, a non-2xx answer, a time-out and a refused connection.
 */
import { normalizeHashrateUnit } from '@shared/units';
import { refusedHost } from './public-address';

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

async function readLimited(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Redirects followed at most. */
const MAX_REDIRECTS = 5;

export interface ProbeOptions {
  timeoutMs?: number;
  /** Fetch links on private, loopback and other non-public addresses too (OBSERVER_ALLOW_PRIVATE; tests, the demo). */
  allowPrivate?: boolean;
}

/**
 * Fetches the observer link (redirects followed, each hop's host checked, OBSERVER_TIMEOUT_MS in all) and reads
 * the hashrate. A host that resolves to a non-public address is refused unless allowPrivate (public-address.ts).
 */
export async function probeObserver(url: string, coinType: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs ?? OBSERVER_TIMEOUT_MS);
  try {
    let target = new URL(url);
    let res: Response | null = null;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = opts.allowPrivate ? null : await refusedHost(target);
      if (refused) return { ok: false, reason: refused };
      res = await fetch(target, {
        redirect: 'manual',
        headers: { Accept: 'application/json, text/html;q=0.9', 'User-Agent': 'Hashfield observer test' },
        signal,
      });
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) break;
      await res.body?.cancel();
      target = new URL(location, target);
      res = null;
    }
    if (!res) return { ok: false, reason: 'too many redirects' };
    const text = await readLimited(res);
    if (!res.ok) return { ok: false, reason: `HTTP ${res.status}` };
    const type = res.headers.get('content-type') ?? '';
    let found: { hashP: number; unit: string } | null = null;
    if (type.includes('json') || /^\s*[{[]/.test(text)) {
      try {
        found = readObserverJson(JSON.parse(text) as unknown, coinType);
      } catch {
        found = null;
      }
    }
    found ??= readObserverHtml(text);
    return found ? { ok: true, ...found } : { ok: false, reason: 'no hashrate on the page' };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.name : 'fetch failed' };
  }
}
