import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Stateless bearer tokens for the Braiins REST and VNish web APIs: expiry + HMAC over (ip, password), so a
 * password change invalidates old tokens and 20,000 miners keep no session tables.
 */
export function issueWebToken(secret: Buffer, ip: string, password: string, now: number, ttlMs: number): string {
  const exp = Math.floor((now + ttlMs) / 1000).toString(16);
  const mac = createHmac('sha256', secret).update(`${ip}\n${password}\n${exp}`).digest('hex').slice(0, 24);
  return `${exp}${mac}`.slice(0, 32).padEnd(32, '0');
}

export function checkWebToken(secret: Buffer, ip: string, password: string, now: number, token: string | undefined): boolean {
  if (!token || token.length !== 32) return false;
  const exp = token.slice(0, 8);
  const expMs = Number.parseInt(exp, 16) * 1000;
  if (!Number.isFinite(expMs) || expMs < now) return false;
  const expect = Buffer.from(`${exp}${createHmac('sha256', secret).update(`${ip}\n${password}\n${exp}`).digest('hex').slice(0, 24)}`);
  const got = Buffer.from(token);
  return expect.length === got.length && timingSafeEqual(expect, got);
}

/** Token from `Authorization: Bearer x`, bare `Authorization: x`, or `x-api-key`. */
export function tokenFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const a = headers.authorization;
  const auth = Array.isArray(a) ? a[0] : a;
  if (auth) return auth.replace(/^bearer\s+/i, '').trim();
  const k = headers['x-api-key'];
  return Array.isArray(k) ? k[0] : k;
}
