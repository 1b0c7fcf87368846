import { describe, expect, it } from 'vitest';
import { tailBytes } from './log-text';

describe('tailBytes', () => {
  it('keeps a short log whole', () => {
    expect(tailBytes('a\nb\n', 100)).toBe('a\nb\n');
  });

  it('keeps the last bytes of a long log, from a line start', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}`);
    const out = tailBytes(`${lines.join('\n')}\n`, 50);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(50);
    expect(out.startsWith('line ')).toBe(true);
    expect(out.endsWith('line 099\n')).toBe(true);
  });

  it('never cuts a multi-byte character in half', () => {
    const out = tailBytes('温度'.repeat(40), 31);
    expect(out).not.toContain('\uFFFD');
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(31);
  });
});
