import { createHash } from 'node:crypto';

/** md5-crypt (`$1$salt$hash`, FreeBSD/glibc) — needed for the Whatsminer v2 token scheme (§3.3). */

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function to64(v: number, n: number): string {
  let s = '';
  let x = v;
  for (let i = 0; i < n; i++) {
    s += ITOA64[x & 0x3f];
    x >>>= 6;
  }
  return s;
}

export function md5Crypt(password: string, saltIn: string): string {
  const magic = '$1$';
  let salt = saltIn.startsWith(magic) ? saltIn.slice(3) : saltIn;
  const dollar = salt.indexOf('$');
  if (dollar >= 0) salt = salt.slice(0, dollar);
  salt = salt.slice(0, 8);
  const pw = Buffer.from(password, 'utf8');
  const sl = Buffer.from(salt, 'utf8');

  const alt = createHash('md5').update(pw).update(sl).update(pw).digest();
  const ctx = createHash('md5').update(pw).update(magic).update(sl);
  for (let pl = pw.length; pl > 0; pl -= 16) ctx.update(alt.subarray(0, Math.min(16, pl)));
  for (let i = pw.length; i; i >>>= 1) ctx.update(i & 1 ? Buffer.from([0]) : pw.subarray(0, 1));
  let fin = ctx.digest();

  for (let i = 0; i < 1000; i++) {
    const c = createHash('md5');
    c.update(i & 1 ? pw : fin);
    if (i % 3) c.update(sl);
    if (i % 7) c.update(pw);
    c.update(i & 1 ? fin : pw);
    fin = c.digest();
  }

  const b = (k: number): number => fin[k] ?? 0;
  let out = '';
  out += to64((b(0) << 16) | (b(6) << 8) | b(12), 4);
  out += to64((b(1) << 16) | (b(7) << 8) | b(13), 4);
  out += to64((b(2) << 16) | (b(8) << 8) | b(14), 4);
  out += to64((b(3) << 16) | (b(9) << 8) | b(15), 4);
  out += to64((b(4) << 16) | (b(10) << 8) | b(5), 4);
  out += to64(b(11), 2);
  return `${magic}${salt}$${out}`;
}

/** The 22-char hash part after the third `$` — what the Whatsminer token scheme uses as `key` / `sign`. */
export function md5CryptHash(password: string, salt: string): string {
  const full = md5Crypt(password, salt);
  return full.split('$')[3] ?? '';
}
