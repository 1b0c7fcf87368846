import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GZIP_PART, packTexts, SnapshotTexts } from './snapshot-texts';

const text = (i: number): string => JSON.stringify({ ip: `10.0.${i >> 8}.${i & 255}`, sn: i % 7 === 0 ? `SÉRIE-${i}` : `S${i}`, rt5s: i * 1.5 });

/** Writes `n` texts and returns each one's place. */
function fill(t: SnapshotTexts, n: number, from = 0): { cycle: number; member: number; start: number; end: number }[] {
  const places = [];
  for (let i = from; i < from + n; i++) {
    t.add(text(i));
    places.push({ cycle: t.cycle, member: t.member, start: t.start, end: t.end });
  }
  return places;
}

describe('SnapshotTexts', () => {
  it('seals a cycle as gzip members of comma-joined texts, each text found again by its place', () => {
    const t = new SnapshotTexts();
    const n = GZIP_PART * 2 + 345;
    const places = fill(t, n);
    expect(places[GZIP_PART - 1]!.member).toBe(0);
    expect(places[GZIP_PART]!.member).toBe(1);
    expect(places[n - 1]!.member).toBe(2);
    // running: closed members unzipped, the open one read as it is
    for (const i of [0, GZIP_PART - 1, GZIP_PART, n - 1]) expect(t.text(places[i]!.cycle, places[i]!.member, places[i]!.start, places[i]!.end)).toBe(text(i));
    const part = t.seal();
    expect(part).not.toBeNull();
    const joined = zlib.gunzipSync(part!).toString('utf8');
    expect(joined).toBe(Array.from({ length: n }, (_, i) => text(i)).join(','));
    expect((JSON.parse(`[${joined}]`) as unknown[]).length).toBe(n);
    // sealed: the same places still read the texts (non-ASCII included)
    places.forEach((p, i) => expect(t.text(p.cycle, p.member, p.start, p.end)).toBe(text(i)));
  });

  it('keeps the sealed cycle until the next seal; an empty cycle has no part', () => {
    const t = new SnapshotTexts();
    const first = fill(t, 10);
    t.seal();
    const second = fill(t, 5, 100);
    expect(t.text(first[3]!.cycle, first[3]!.member, first[3]!.start, first[3]!.end)).toBe(text(3));
    expect(t.text(second[4]!.cycle, second[4]!.member, second[4]!.start, second[4]!.end)).toBe(text(104));
    t.seal();
    expect(() => t.text(first[3]!.cycle, first[3]!.member, first[3]!.start, first[3]!.end)).toThrow(/not kept/);
    expect(t.text(second[4]!.cycle, second[4]!.member, second[4]!.start, second[4]!.end)).toBe(text(104));
    expect(t.seal()).toBeNull();
  });

  it('restart drops the running cycle’s texts, which are then written again', () => {
    const t = new SnapshotTexts();
    fill(t, GZIP_PART + 10);
    t.restart();
    expect(t.count).toBe(0);
    const again = fill(t, 3, 500);
    expect(again.map((p) => p.member)).toEqual([0, 0, 0]);
    expect(zlib.gunzipSync(t.seal()!).toString('utf8')).toBe([text(500), text(501), text(502)].join(','));
  });
});

describe('packTexts', () => {
  it('gunzips to the texts joined by commas, for 0, 1, and several gzip members', () => {
    for (const n of [0, 1, 999, 1000, 1001, 3500]) {
      const texts = Array.from({ length: n }, (_, i) => JSON.stringify({ ip: `10.0.${i >> 8}.${i & 255}`, n: i }));
      const packed = packTexts(texts);
      expect(packed.count).toBe(n);
      expect(packed.parts).toHaveLength(n ? 1 : 0);
      if (n) expect(zlib.gunzipSync(packed.parts[0]!).toString('utf8')).toBe(texts.join(','));
    }
  });

  it('encodes non-ASCII text as UTF-8 and grows its buffer for large members', () => {
    // snapshots of up to ~3 KB each (past the initial buffer size) with multi-byte and astral characters
    const texts = Array.from({ length: 2100 }, (_, i) => JSON.stringify({ sn: `矿机-${i}-Майнер-😀`, pad: 'x'.repeat(i % 7 === 0 ? 3000 : 20) }));
    expect(zlib.gunzipSync(packTexts(texts).parts[0]!).toString('utf8')).toBe(texts.join(','));
  });
});
