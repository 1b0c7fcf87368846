import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, decodeSecretKey } from './secret-box';

describe('secret box', () => {
  it('round-trips with SECRET_KEY (base64 or hex) and never stores the plaintext', () => {
    const hex = 'ab'.repeat(32);
    const box = createSecretBox({ secretKey: hex, dataDir: '/nonexistent' });
    const sealed = box.encrypt('pool-pass');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('pool-pass');
    expect(box.encrypt('pool-pass')).not.toBe(sealed); // fresh IV
    expect(createSecretBox({ secretKey: Buffer.from(hex, 'hex').toString('base64'), dataDir: '/nonexistent' }).decrypt(sealed)).toBe('pool-pass');
    expect(() => createSecretBox({ secretKey: 'cd'.repeat(32), dataDir: '/nonexistent' }).decrypt(sealed)).toThrow();
    expect(() => decodeSecretKey('short')).toThrow(/32 bytes/);
  });

  it('without SECRET_KEY generates a 0600 key file once under dataDir and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-secret-'));
    try {
      const sealed = createSecretBox({ secretKey: null, dataDir: dir }).encrypt('x');
      const file = path.join(dir, 'secret.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const before = fs.readFileSync(file, 'utf8');
      expect(createSecretBox({ secretKey: null, dataDir: dir }).decrypt(sealed)).toBe('x');
      expect(fs.readFileSync(file, 'utf8')).toBe(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
