import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipJoined, packedBatch, packTexts } from './packed-snapshots';

describe('gzipJoined', () => {
  it('gunzips to head + parts joined by commas + tail, for 0, 1, and several gzip members', () => {
    for (const n of [0, 1, 999, 1000, 1001, 3500]) {
      const parts = Array.from({ length: n }, (_, i) => JSON.stringify({ ip: `10.0.${i >> 8}.${i & 255}`, n: i }));
      const gz = gzipJoined('{"batchSeq":1,"snapshots":[', parts, ']}');
      const text = zlib.gunzipSync(gz).toString('utf8');
      expect(text).toBe(`{"batchSeq":1,"snapshots":[${parts.join(',')}]}`);
      expect((JSON.parse(text) as { snapshots: unknown[] }).snapshots).toHaveLength(n);
    }
  });

  it('encodes non-ASCII text as UTF-8 and grows its scratch buffer for large members', () => {
    // 1,000 snapshots of ~3 KB each (past the initial scratch size) with multi-byte and astral characters
    const parts = Array.from({ length: 2100 }, (_, i) => JSON.stringify({ sn: `矿机-${i}-Майнер-😀`, pad: 'x'.repeat(i % 7 === 0 ? 3000 : 20) }));
    const text = zlib.gunzipSync(gzipJoined('{"h":"é","s":[', parts, ']}')).toString('utf8');
    expect(text).toBe(`{"h":"é","s":[${parts.join(',')}]}`);
  });
});

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
