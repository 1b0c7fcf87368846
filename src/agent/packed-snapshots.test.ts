import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packedBatch } from './packed-snapshots';
import { packTexts } from './snapshot-texts';

describe('packedBatch', () => {
  it('wraps parts of several poll threads between head and tail, comma-joined, skipping nothing and adding no comma for an empty cycle', () => {
    const a = Array.from({ length: 1500 }, (_, i) => JSON.stringify({ n: i }));
    const b = ['{"n":"b"}'];
    const packed = { parts: [...packTexts(a).parts, ...packTexts([]).parts, ...packTexts(b).parts], count: a.length + 1 };
    expect(packTexts([]).parts).toEqual([]);
    const text = zlib.gunzipSync(packedBatch('{"s":[', packed, ']}')).toString('utf8');
    expect(text).toBe(`{"s":[${[...a, ...b].join(',')}]}`);
    expect(zlib.gunzipSync(packedBatch('{"s":[', packTexts([]), ']}')).toString('utf8')).toBe('{"s":[]}');
  });
});
