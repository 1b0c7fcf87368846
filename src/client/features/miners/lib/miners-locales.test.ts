/** The miners namespace has the same keys in all three languages, none empty, and each column has a title. */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '@shared/validation';
import { minerColumns } from './miner-columns';

const files = import.meta.glob<Record<string, unknown>>('/src/locales/*/miners.json', { eager: true, import: 'default' });

function entries(obj: unknown, prefix = ''): [string, unknown][] {
  if (typeof obj !== 'object' || obj === null) return [[prefix, obj]];
  return Object.entries(obj).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k));
}

describe('miners locale', () => {
  it('has the same non-empty keys in every language', () => {
    const reference = entries(files['/src/locales/zh-CN/miners.json']).map(([k]) => k).sort();
    expect(reference.length).toBeGreaterThan(100);
    for (const lng of LOCALES) {
      const all = entries(files[`/src/locales/${lng}/miners.json`]);
      expect(all.map(([k]) => k).sort(), lng).toEqual(reference);
      for (const [k, v] of all) expect(typeof v === 'string' && v.trim() !== '', `${lng} ${k}`).toBe(true);
    }
  });

  it('titles every list column', () => {
    const keys = new Set(entries(files['/src/locales/en-US/miners.json']).map(([k]) => k));
    const seen: string[] = [];
    const t = ((key: string) => {
      seen.push(key);
      return key;
    }) as never;
    minerColumns(t, (_kind, value) => value);
    for (const key of seen) expect(keys.has(key), key).toBe(true);
  });
});
