import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesEcbDecrypt, aesEcbEncryptZero, md5Crypt, md5CryptHash, whatsminerV2AesKey, whatsminerV2Token, whatsminerV3Token } from './whatsminer-crypto';

describe('Whatsminer crypto (§3.3, §3.4)', () => {
  it('md5-crypt matches openssl passwd -1 vectors', () => {
    expect(md5Crypt('password', '3azHgidD')).toBe('$1$3azHgidD$SrJPt7B.9rekpmwJwtON31');
    expect(md5Crypt('admin', 'BQ5hoXV9')).toBe('$1$BQ5hoXV9$RxmaDUO33TS7O26yeMHZ81');
    expect(md5Crypt('abc5872', '$1$4Vlnq0lD$')).toBe('$1$4Vlnq0lD$vMk14o3FrlWXZ.dOO/Zx71');
    expect(md5CryptHash('admin', 'BQ5hoXV9')).toBe('RxmaDUO33TS7O26yeMHZ81');
  });
  it('v2 key/sign derivation chains md5-crypt as documented', () => {
    const t = whatsminerV2Token('admin', { time: '5872', salt: 'BQ5hoXV9', newsalt: '4Vlnq0lD' });
    expect(t.key).toBe('RxmaDUO33TS7O26yeMHZ81');
    expect(t.sign).toBe(md5CryptHash(`${t.key}5872`, '4Vlnq0lD'));
  });
  it('AES-256-ECB zero padding matches openssl -nopad on a zero-padded input', () => {
    const key = crypto.createHash('sha256').update('abc').digest();
    const enc = aesEcbEncryptZero('{"cmd":"reboot","token":"abc"}', key);
    expect(enc).toBe('at2J5S2uO/SxZx/dKukbGP0Nv6yqNQMKXXxuX7H0/sE=');
    expect(aesEcbDecrypt(enc, key)).toBe('{"cmd":"reboot","token":"abc"}');
    expect(whatsminerV2AesKey('abc').equals(key)).toBe(true);
  });
  it('decrypt also accepts PKCS#7-padded data', () => {
    const key = crypto.randomBytes(32);
    const c = crypto.createCipheriv('aes-256-ecb', key, null);
    const b64 = Buffer.concat([c.update('{"x":1}'), c.final()]).toString('base64');
    expect(aesEcbDecrypt(b64, key)).toBe('{"x":1}');
  });
  it('v3 token is the first 8 chars of base64(SHA-256(cmd+password+salt+ts))', () => {
    const { token, aesKey } = whatsminerV3Token('set.system.reboot', 'super', 'uhCiDyVj', 1718003200);
    const d = crypto.createHash('sha256').update('set.system.rebootsuperuhCiDyVj1718003200').digest();
    expect(token).toBe(d.toString('base64').slice(0, 8));
    expect(aesKey.equals(d)).toBe(true);
  });
});
