import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { parseScanIpList } from '@shared/schemas/scan-ip';
import { formatLineError, overlapsWithSaved, rangeToFormValues, validateScanIpForm } from './scan-ip-form';

describe('scan IP form helpers', () => {
  it('validates with the shared rules and answers message keys', () => {
    expect(validateScanIpForm({ ipBegin: '', ipEnd: '10.0.0.1', remark: '' })).toEqual({ ipBegin: 'validation.ipAddress' });
    expect(validateScanIpForm({ ipBegin: '10.0.0.9', ipEnd: '10.0.0.1', remark: '' })).toEqual({ ipEnd: 'validation.ipOrder' });
    expect(validateScanIpForm({ ipBegin: '10.0.0.1', ipEnd: '10.0.0.9', remark: 'ok' })).toEqual({});
  });

  it('starts empty or from the edited range', () => {
    expect(rangeToFormValues(undefined)).toEqual({ ipBegin: '', ipEnd: '', remark: '' });
    expect(rangeToFormValues({ id: 'x', sortNo: 1, ipBegin: '1.1.1.1', ipEnd: '1.1.1.2', remark: 'r', agentKey: 'f', amount: 2 })).toEqual({ ipBegin: '1.1.1.1', ipEnd: '1.1.1.2', remark: 'r' });
  });

  it('puts the line number in front of a line message', () => {
    const t = ((key: string, vars?: Record<string, unknown>) => (vars && Object.keys(vars).length ? `${key}${JSON.stringify(vars)}` : key)) as unknown as TFunction;
    expect(formatLineError(t, { line: 3, key: 'validation.ipAddress' })).toBe('errors:validation.scanIpLine{"line":3,"message":"errors:validation.ipAddress"}');
    expect(formatLineError(t, { line: 0, key: 'validation.scanIpListRequired' })).toBe('errors:validation.scanIpListRequired');
  });

  it('names the batch lines that overlap a saved range, with that range', () => {
    const saved = [
      { id: 'a', sortNo: 1, ipBegin: '10.0.0.1', ipEnd: '10.0.0.50', remark: '', agentKey: 'f', amount: 50 },
      { id: 'b', sortNo: 2, ipBegin: '10.0.1.1', ipEnd: '10.0.1.9', remark: '', agentKey: 'f', amount: 9 },
    ];
    const { ranges } = parseScanIpList(['10.0.0.50-10.0.0.60-touches the end of No. 1', '', '10.0.2.1-10.0.2.9', '10.0.0.200-10.0.1.1'].join('\n'));
    expect(overlapsWithSaved(ranges, saved)).toEqual([
      { line: 1, key: 'validation.scanIpOverlap', vars: { sortNo: 1, ipBegin: '10.0.0.1', ipEnd: '10.0.0.50' } },
      { line: 4, key: 'validation.scanIpOverlap', vars: { sortNo: 2, ipBegin: '10.0.1.1', ipEnd: '10.0.1.9' } },
    ]);
    expect(overlapsWithSaved(ranges, [])).toEqual([]);
  });
});
