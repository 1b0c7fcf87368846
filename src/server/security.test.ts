import { describe, expect, it } from 'vitest';
import { newAgentSecret, newToken } from './security';

describe('newAgentSecret', () => {
  it('never begins with "-" (read as an option on the agent\'s command line), and stays a 32-character base64url token', () => {
    // base64url begins with "-" 1 time in 64: 4,000 draws meet it ~60 times if the guard were missing.
    const plain = Array.from({ length: 4000 }, () => newToken(24));
    expect(plain.some((t) => t.startsWith('-'))).toBe(true);
    const secrets = Array.from({ length: 4000 }, () => newAgentSecret());
    expect(secrets.filter((s) => s.startsWith('-'))).toEqual([]);
    for (const s of secrets.slice(0, 50)) expect(s).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
