import { describe, expect, it } from 'vitest';
import {
  BatchSaveScanIpBody,
  DeleteScanIpBody,
  SCAN_IP_LIMITS,
  SCAN_IP_PERMISSION,
  SaveScanIpBody,
  ScanIpRangeForm,
  checkScanRange,
  findOverlap,
  ipRangeSize,
  ipv4ToNumber,
  numberToIpv4,
  parseScanIpList,
  rangesOverlap,
  splitScanIpLine,
} from './scan-ip';

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('address arithmetic', () => {
  it('converts dotted quads to numbers and back', () => {
    expect(ipv4ToNumber('0.0.0.0')).toBe(0);
    expect(ipv4ToNumber('10.0.0.1')).toBe(167_772_161);
    expect(ipv4ToNumber('255.255.255.255')).toBe(4_294_967_295);
    expect(numberToIpv4(4_294_967_295)).toBe('255.255.255.255');
    expect(numberToIpv4(167_772_161)).toBe('10.0.0.1');
    for (const bad of ['', '10.0.0', '10.0.0.256', '10.0.0.01', '10.0.0.1.2', 'a.b.c.d', ' 10.0.0.1']) expect(ipv4ToNumber(bad), bad).toBeNull();
  });

  it('counts the addresses of a range, 0 when invalid or reversed', () => {
    expect(ipRangeSize('192.168.1.1', '192.168.1.254')).toBe(254);
    expect(ipRangeSize('10.0.0.1', '10.0.0.1')).toBe(1);
    expect(ipRangeSize('10.0.255.250', '10.1.0.5')).toBe(12);
    expect(ipRangeSize('10.0.0.9', '10.0.0.1')).toBe(0);
    expect(ipRangeSize('x', '10.0.0.1')).toBe(0);
  });

  it('finds overlaps, touching ends included', () => {
    expect(rangesOverlap({ begin: 1, end: 5 }, { begin: 5, end: 9 })).toBe(true);
    expect(rangesOverlap({ begin: 1, end: 5 }, { begin: 6, end: 9 })).toBe(false);
    expect(rangesOverlap({ begin: 3, end: 4 }, { begin: 1, end: 9 })).toBe(true);
    expect(findOverlap({ begin: 7, end: 8 }, [{ begin: 1, end: 2, n: 'a' }, { begin: 8, end: 20, n: 'b' }])?.n).toBe('b');
  });
});

describe('range rules', () => {
  it('answers each problem with its message key', () => {
    expect(checkScanRange('10.0.0.1', '10.0.0.9')).toEqual([]);
    expect(checkScanRange('10.0.0.300', '')).toEqual([
      { field: 'ipBegin', key: 'validation.ipAddress' },
      { field: 'ipEnd', key: 'validation.ipAddress' },
    ]);
    expect(checkScanRange('10.0.0.9', '10.0.0.1')).toEqual([{ field: 'ipEnd', key: 'validation.ipOrder' }]);
    // Numeric order, not text order: "10.0.0.10" > "10.0.0.9".
    expect(checkScanRange('10.0.0.9', '10.0.0.10')).toEqual([]);
    expect(checkScanRange('10.0.0.0', '10.0.255.255')).toEqual([]);
    expect(checkScanRange('10.0.0.0', '10.1.0.0')).toEqual([{ field: 'ipEnd', key: 'validation.ipRangeSize' }]);
    expect(checkScanRange('10.0.0.1', '10.0.0.2', 'x'.repeat(201))).toEqual([{ field: 'remark', key: 'validation.scanIpRemarkMax' }]);
    expect(SCAN_IP_LIMITS.maxAddresses).toBe(65_536);
  });

  it('the save body validates like the form and ignores the amount sent', () => {
    expect(issues(SaveScanIpBody.safeParse({ agentKey: 'f', ipEnd: '10.0.0.1' }))).toEqual({ ipBegin: 'validation.ipAddress' });
    expect(issues(SaveScanIpBody.safeParse({ agentKey: 'f', ipBegin: '10.0.0.9', ipEnd: '10.0.0.1' }))).toEqual({ ipEnd: 'validation.ipOrder' });
    expect(issues(SaveScanIpBody.safeParse({ agentKey: 'f', ipBegin: '1.1.1.1', ipEnd: '1.1.1.2', scanIpId: 'nope' }))).toEqual({ scanIpId: 'validation.id' });
    const ok = SaveScanIpBody.parse({ agentKey: 'f', ipBegin: ' 10.0.0.1 ', ipEnd: '10.0.0.20', remark: ' rack ', scanIpId: '', amount: '999' });
    expect(ok).toMatchObject({ ipBegin: '10.0.0.1', ipEnd: '10.0.0.20', remark: 'rack', scanIpId: undefined });
    expect(issues(ScanIpRangeForm.safeParse({ ipBegin: '', ipEnd: '10.0.0.1', remark: '' }))).toEqual({ ipBegin: 'validation.ipAddress' });
  });

  it('the batch and delete bodies require their lists', () => {
    expect(issues(BatchSaveScanIpBody.safeParse({ agentKey: 'f', scanIpList: '  \n ' }))).toEqual({ scanIpList: 'validation.scanIpListRequired' });
    expect(issues(DeleteScanIpBody.safeParse({ agentKey: 'f' }))).toEqual({ scanIpId: 'validation.scanIpIds' });
    expect(issues(DeleteScanIpBody.safeParse({ agentKey: 'f', scanIpId: 'a,b' }))).toEqual({ scanIpId: 'validation.id' });
    const ids = ['0b0f7e0e-8d1c-4c43-9b4e-0a6a3a1e2f10', '1b0f7e0e-8d1c-4c43-9b4e-0a6a3a1e2f11'];
    expect(DeleteScanIpBody.parse({ agentKey: 'f', scanIpId: ` ${ids[0]}, ${ids[1]},` }).scanIpId).toEqual(ids);
  });

  it('uses the catalogue keys of the page', () => {
    expect(SCAN_IP_PERMISSION).toEqual({ view: 82_000, operate: 82_500 });
  });
});

describe('batch import text', () => {
  it('splits begin-end-remark with a remark that may contain dashes', () => {
    expect(splitScanIpLine('10.0.0.1-10.0.0.9')).toEqual({ ipBegin: '10.0.0.1', ipEnd: '10.0.0.9', remark: '' });
    expect(splitScanIpLine(' 10.0.0.1 - 10.0.0.9 - Row A - left ')).toEqual({ ipBegin: '10.0.0.1', ipEnd: '10.0.0.9', remark: 'Row A - left' });
    expect(splitScanIpLine('10.0.0.1-10.0.0.9-')).toEqual({ ipBegin: '10.0.0.1', ipEnd: '10.0.0.9', remark: '' });
    expect(splitScanIpLine('10.0.0.1')).toBeNull();
    expect(splitScanIpLine('10.0.0.1-')).toBeNull();
    expect(splitScanIpLine('-10.0.0.1')).toBeNull();
  });

  it('parses good lines, skips blank lines, keeps line numbers as typed', () => {
    const r = parseScanIpList('10.0.0.1-10.0.0.10-A\r\n\n   \n10.0.1.0-10.0.1.255-B-2\n');
    expect(r.errors).toEqual([]);
    expect(r.ranges.map((x) => [x.line, x.ipBegin, x.ipEnd, x.remark, x.amount])).toEqual([
      [1, '10.0.0.1', '10.0.0.10', 'A', 10],
      [4, '10.0.1.0', '10.0.1.255', 'B-2', 256],
    ]);
  });

  it('reports every bad line with its number', () => {
    const r = parseScanIpList(['10.0.0.1-10.0.0.10', 'garbage', '', '10.0.0.300-10.0.0.400-x', '10.0.2.9-10.0.2.1', '10.0.0.5-10.0.0.6-dup', `10.1.0.0-10.2.0.0`, `10.3.0.1-10.3.0.2-${'r'.repeat(201)}`].join('\n'));
    expect(r.errors).toEqual([
      { line: 2, key: 'validation.scanIpLineFormat' },
      { line: 4, key: 'validation.ipAddress' },
      { line: 5, key: 'validation.ipOrder' },
      { line: 6, key: 'validation.scanIpOverlapLine', vars: { other: 1 } },
      { line: 7, key: 'validation.ipRangeSize' },
      { line: 8, key: 'validation.scanIpRemarkMax' },
    ]);
    expect(r.ranges.map((x) => x.line)).toEqual([1]);
  });

  it('refuses an empty text and too many lines as a whole', () => {
    expect(parseScanIpList(' \n\n').errors).toEqual([{ line: 0, key: 'validation.scanIpListRequired' }]);
    const many = Array.from({ length: SCAN_IP_LIMITS.batchMaxLines + 1 }, (_, i) => `10.${Math.floor(i / 256)}.${i % 256}.1-10.${Math.floor(i / 256)}.${i % 256}.9`).join('\n');
    expect(parseScanIpList(many).errors).toEqual([{ line: 0, key: 'validation.scanIpBatchMax', vars: { max: SCAN_IP_LIMITS.batchMaxLines } }]);
  });
});
