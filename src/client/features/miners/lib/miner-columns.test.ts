import { describe, expect, it } from 'vitest';
import type { MinerRow } from '@shared/schemas/miner';
import { exportTable } from './export-miners';
import { SN_COLUMN_WIDTH, minerColumns } from './miner-columns';

const t = ((key: string) => key) as never;
const columns = minerColumns(t, (_kind, value) => value);
const column = (key: string) => {
  const c = columns.find((x) => x.key === key);
  if (!c) throw new Error(key);
  return c;
};
const reading = { ip: '10.0.0.9', sn: 'HTM3CS40ZXQWMBNKD', gHS5s: 237_920, gHS30m: 236_100, gHSav: 235_000, rateIdeal: 234_000, hashRatePercent: 101.7 };
const online = { ...reading, online: true } as MinerRow;
const offline = { ...reading, online: false } as MinerRow;
const LIVE = ['gHS5s', 'gHS30m', 'hashRatePercent'];

describe('miner columns', () => {
  it('shows the live figures of an online miner', () => {
    expect(LIVE.map((k) => column(k).render?.(online, 0))).toEqual(['237.92 TH/s', '236.10 TH/s', '101.7%']);
  });

  it('does not show an offline miner’s last reading as live, on screen or in an export', () => {
    expect(LIVE.map((k) => column(k).render?.(offline, 0))).toEqual(['—', '—', '—']);
    const table = exportTable(LIVE.map(column), [online, offline]);
    expect(table.rows).toEqual([
      ['237.92 TH/s', '236.10 TH/s', 101.7],
      [null, null, null],
    ]);
    // Not live: the average since start and the ideal hashrate stay.
    expect(column('gHSav').render?.(offline, 0)).toBe('235.00 TH/s');
    expect(column('rateIdeal').exportValue(offline)).toBe('234.00 TH/s');
  });

  it('gives the SN column room for a 17-character serial number', () => {
    // Up to ~177 px of text at 14 px sans-serif (the widest of 816 serial numbers, measured in Chromium), plus 2 × 10 px padding.
    expect(column('sn').width).toBe(SN_COLUMN_WIDTH);
    expect(SN_COLUMN_WIDTH - 20).toBeGreaterThanOrEqual(178);
  });
});
