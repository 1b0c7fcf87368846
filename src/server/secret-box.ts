/**
 * Encryption of stored secrets (sub-account passwords) with AES-256-GCM. The key is SECRET_KEY (32 bytes,
 * base64 or hex) or, when unset, a key file `secret.key` generated once under DATA_DIR with mode 0600.
 * Stored form: `v1:<iv base64>:<tag base64>:<ciphertext base64>`. The key is never logged.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from './config';

const KEY_FILE = 'secret.key';
const KEY_BYTES = 32;

/** Decodes a 32-byte key written as 64 hex digits or base64; throws for anything else. */
export function decodeSecretKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('SECRET_KEY must be 32 bytes, written as base64 or 64 hex digits');
  return key;
}

/** The key file under dataDir, created (mode 0600, exclusive) when absent. */
function keyFromFile(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  try {
    return decodeSecretKey(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return decodeSecretKey(fs.readFileSync(file, 'utf8'));
    throw err;
  }
}

export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

/** A box over the configured key; the key is read (or the key file created) on first use. */
export function createSecretBox(config: Pick<ServerConfig, 'secretKey' | 'dataDir'>): SecretBox {
  let key: Buffer | null = null;
  const getKey = () => (key ??= config.secretKey ? decodeSecretKey(config.secretKey) : keyFromFile(config.dataDir));
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
    },
    decrypt(stored) {
      const [version, iv, tag, data] = stored.split(':');
      if (version !== 'v1' || iv === undefined || tag === undefined || data === undefined) throw new Error('unknown secret format');
      const decipher = createDecipheriv('aes-256-gcm', getKey(), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
