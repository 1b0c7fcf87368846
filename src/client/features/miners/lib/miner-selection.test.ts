import { describe, expect, it } from 'vitest';
import type { MinerRow } from '@shared/schemas/miner';
import { EMPTY_SELECTION, applyTableKeys, isAllMatching, selectAllMatching, selectedRows, selectionCount, visibleSelectedKeys } from './miner-selection';

const row = (ip: string) => ({ ip, sn: `SN-${ip}` }) as MinerRow;
const page1 = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map(row);
const page2 = ['10.0.0.4', '10.0.0.5'].map(row);

describe('miner selection', () => {
  it('keeps explicit miners across pages with their rows', () => {
    let s = applyTableKeys(EMPTY_SELECTION, ['10.0.0.1', '10.0.0.3'], page1);
    s = applyTableKeys(s, [...visibleSelectedKeys(s, page2), '10.0.0.5'], page2);
    expect(selectionCount(s)).toBe(3);
    expect(selectedRows(s).map((r) => r.sn)).toEqual(['SN-10.0.0.1', 'SN-10.0.0.3', 'SN-10.0.0.5']);
    s = applyTableKeys(s, ['10.0.0.3', '10.0.0.5'], page1);
    expect(selectedRows(s).map((r) => r.ip)).toEqual(['10.0.0.3', '10.0.0.5']);
  });

  it('selects every miner matching a filter and remembers the unticked ones', () => {
    let s = selectAllMatching({ status: 'offline' }, 5);
    expect(isAllMatching(s)).toBe(true);
    expect(visibleSelectedKeys(s, page1)).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    s = applyTableKeys(s, ['10.0.0.1', '10.0.0.3'], page1);
    expect(selectionCount(s)).toBe(4);
    expect(isAllMatching(s)).toBe(false);
    expect(visibleSelectedKeys(s, page2)).toEqual(['10.0.0.4', '10.0.0.5']);
    expect(selectedRows(s, [...page1, ...page2]).map((r) => r.ip)).toEqual(['10.0.0.1', '10.0.0.3', '10.0.0.4', '10.0.0.5']);
    s = applyTableKeys(s, ['10.0.0.2'], page1);
    expect(selectionCount(s)).toBe(3);
  });

  it('becomes empty when every matching miner is unticked, or nothing matches', () => {
    expect(selectAllMatching({}, 0)).toBe(EMPTY_SELECTION);
    const s = applyTableKeys(selectAllMatching({}, 3), [], page1);
    expect(selectionCount(s)).toBe(0);
    expect(s.kind).toBe('ips');
  });
});
