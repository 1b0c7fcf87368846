/** Password hashing (scrypt), tokens and request hashes. */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Format: scrypt$N$r$p$salt(b64)$hash(b64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash that costs the same as a real check, used when the user does not exist (no timing oracle). */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEYLEN).toString('base64')}`;

export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * A farm's agent secret: a token that does not begin with "-", so that `--secret <secret>` on the agent's command
 * line is never read as an option (base64url starts 1 token in 64 with "-"). Drawing again keeps the rest uniform.
 */
export function newAgentSecret(): string {
  for (;;) {
    const token = newToken(24);
    if (!token.startsWith('-')) return token;
  }
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
