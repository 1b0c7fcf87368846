import { describe, expect, it } from 'vitest';
import { childLevel, parseSegment, parseSegmentLines } from './sub-areas';

describe('sub-IP segments', () => {
  it('parses CIDR (aligned to the network), ranges and single addresses', () => {
    expect(parseSegment('10.0.1.77/24')).toEqual({ segment: '10.0.1.0/24', begin: 167772416, end: 167772671 });
    expect(parseSegment(' 10.0.0.1 - 10.0.0.4 ')).toEqual({ segment: '10.0.0.1-10.0.0.4', begin: 167772161, end: 167772164 });
    expect(parseSegment('10.0.0.9')).toEqual({ segment: '10.0.0.9', begin: 167772169, end: 167772169 });
    expect(parseSegment('10.0.0.9/32')).toMatchObject({ begin: 167772169, end: 167772169 });
  });

  it('names each problem', () => {
    expect(parseSegment('10.0.0.256')).toEqual({ key: 'validation.ipAddress' });
    expect(parseSegment('10.0.0.0/33')).toEqual({ key: 'validation.subIpPrefix' });
    expect(parseSegment('10.0.0.0/8')).toEqual({ key: 'validation.ipRangeSize' });
    expect(parseSegment('10.0.0.9-10.0.0.1')).toEqual({ key: 'validation.ipOrder' });
    expect(parseSegment('10.0.0.0-10.2.0.0')).toEqual({ key: 'validation.ipRangeSize' });
  });

  it('reports bad and overlapping lines by their line number, skipping blanks', () => {
    const r = parseSegmentLines('10.0.0.0/30\n\nnope\n10.0.0.2\n10.0.1.1');
    expect(r.segments.map((s) => s.line)).toEqual([1, 5]);
    expect(r.errors).toEqual([
      { line: 3, key: 'validation.ipAddress' },
      { line: 4, key: 'validation.scanIpOverlapLine', vars: { other: 1 } },
    ]);
    expect(parseSegmentLines(' \n ').errors).toEqual([{ line: 0, key: 'validation.subIpRequired' }]);
    expect(parseSegmentLines(Array.from({ length: 501 }, (_, i) => `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`).join('\n')).errors).toEqual([{ line: 0, key: 'validation.subIpTooMany' }]);
  });
});

describe('sub-area levels', () => {
  it('allows 5 levels and refuses a 6th', () => {
    expect(childLevel(0)).toEqual({ level: 1 });
    expect(childLevel(4)).toEqual({ level: 5 });
    expect(childLevel(5)).toEqual({ key: 'validation.subAreaLevelLimit' });
  });
});
