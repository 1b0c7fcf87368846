import crypto from 'node:crypto';

/**
 * Crypto primitives of the Whatsminer API (miner-protocols.md §3.3, §3.4):
 * md5-crypt ($1$), AES-256-ECB with zero padding, v2 key/sign derivation, v3 token.
 */

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function to64(v: number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    out += ITOA64[v & 0x3f];
    v >>>= 6;
  }
  return out;
}

/** Full md5-crypt string `$1$<salt>$<hash>` (salt cut to 8 chars, as crypt(3) does). */
export function md5Crypt(password: string, salt: string): string {
  const pw = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.replace(/^\$1\$/, '').split('$')[0]?.slice(0, 8) ?? '', 'utf8');
  const magic = Buffer.from('$1$');
  const alt = crypto.createHash('md5').update(pw).update(s).update(pw).digest();
  const ctx = crypto.createHash('md5').update(pw).update(magic).update(s);
  for (let pl = pw.length; pl > 0; pl -= 16) ctx.update(alt.subarray(0, Math.min(pl, 16)));
  for (let i = pw.length; i; i >>= 1) ctx.update(i & 1 ? Buffer.from([0]) : pw.subarray(0, 1));
  let fin = ctx.digest();
  for (let i = 0; i < 1000; i++) {
    const c = crypto.createHash('md5');
    c.update(i & 1 ? pw : fin);
    if (i % 3) c.update(s);
    if (i % 7) c.update(pw);
    c.update(i & 1 ? fin : pw);
    fin = c.digest();
  }
  const b = (i: number) => fin[i] as number;
  const hash =
    to64((b(0) << 16) | (b(6) << 8) | b(12), 4) +
    to64((b(1) << 16) | (b(7) << 8) | b(13), 4) +
    to64((b(2) << 16) | (b(8) << 8) | b(14), 4) +
    to64((b(3) << 16) | (b(9) << 8) | b(15), 4) +
    to64((b(4) << 16) | (b(10) << 8) | b(5), 4) +
    to64(b(11), 2);
  return `$1$${s.toString('utf8')}$${hash}`;
}

/** The hash part (after the third `$`) of md5-crypt. */
export function md5CryptHash(password: string, salt: string): string {
  return md5Crypt(password, salt).split('$')[3] ?? '';
}

/** v2: key = md5crypt(password, salt) hash part; sign = md5crypt(key + time, newsalt) hash part. */
export function whatsminerV2Token(password: string, tok: { time: string; salt: string; newsalt: string }): { key: string; sign: string } {
  const key = md5CryptHash(password, tok.salt);
  const sign = md5CryptHash(key + tok.time, tok.newsalt);
  return { key, sign };
}

/** AES-256-ECB encrypt, zero-padded to 16 bytes, base64 (no newlines). aesKey = 32 raw bytes. */
export function aesEcbEncryptZero(plain: string, aesKey: Buffer): string {
  const data = Buffer.from(plain, 'utf8');
  const padLen = (16 - (data.length % 16)) % 16;
  const padded = padLen ? Buffer.concat([data, Buffer.alloc(padLen)]) : data;
  const c = crypto.createCipheriv('aes-256-ecb', aesKey, null);
  c.setAutoPadding(false);
  return Buffer.concat([c.update(padded), c.final()]).toString('base64');
}

/** AES-256-ECB decrypt of base64; strips trailing NULs, or PKCS#7 padding when that is what is there. */
export function aesEcbDecrypt(b64: string, aesKey: Buffer): string {
  const d = crypto.createDecipheriv('aes-256-ecb', aesKey, null);
  d.setAutoPadding(false);
  let out = Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]);
  const last = out[out.length - 1] ?? 0;
  if (last > 0 && last <= 16 && out.length >= last && out.subarray(out.length - last).every((x) => x === last)) {
    out = out.subarray(0, out.length - last);
  }
  let end = out.length;
  while (end > 0 && out[end - 1] === 0) end--;
  return out.subarray(0, end).toString('utf8');
}

/** v2 AES key: SHA-256 of the md5-crypt key string. */
export function whatsminerV2AesKey(key: string): Buffer {
  return crypto.createHash('sha256').update(key, 'utf8').digest();
}

/** v3: digest = SHA-256(cmd + password + salt + ts); token = first 8 chars of its base64; digest is also the AES key. */
export function whatsminerV3Token(cmd: string, password: string, salt: string, ts: number): { token: string; aesKey: Buffer } {
  const digest = crypto.createHash('sha256').update(`${cmd}${password}${salt}${ts}`, 'utf8').digest();
  return { token: digest.toString('base64').slice(0, 8), aesKey: digest };
}
