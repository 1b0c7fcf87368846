import { describe, expect, it } from 'vitest';
import type { FirmwareFamily, MinerBoard } from '@shared/schemas/miner-snapshot';
import { displayModel, lookupModel, makeOf } from './catalogue';
import type { MinerReading } from './miner-types';
import { computeFaultLabels, computeFlags } from './state-flags';

/** A reading as a family driver builds it: expected chips per board from the catalogue entry, else the chips seen. */
function reading(reported: string, family: FirmwareFamily, boards: Array<{ chips: number; rate: number }>, fans: number[], ideal = 0): MinerReading {
  const model = lookupModel(reported, family);
  return {
    ip: '10.0.0.9', mac: 'AA:BB:CC:00:11:22', sn: 'SN1', make: makeOf(reported, family), model: displayModel(reported, family), family,
    firmwareVersion: '', compileTime: null, rt5s: boards.reduce((a, b) => a + b.rate, 0), rate30m: 0, avg: 0, ideal,
    boards: boards.map((b, index): MinerBoard => ({
      index, chips: b.chips, expectedChips: model?.chipsPerBoard ?? b.chips, tempPcb: [50], tempChip: [60], tempPic: [], rateGhs: b.rate, hwErrors: 0,
    })),
    fans, pools: [], workMode: 'normal', elapsedSec: 3600, errorCodes: [],
  };
}

describe('catalogue lookups of recognised (not simulated) models', () => {
  it('finds the reported names of every firmware family', () => {
    expect(lookupModel('Antminer S21 XP Hyd.', 'antminer-stock')?.id).toBe('antminer-s21-xp-hyd');
    expect(lookupModel('Antminer S19k Pro', 'luxos')?.id).toBe('antminer-s19k-pro');
    expect(lookupModel('Bitmain Antminer S19 Pro', 'braiins')?.id).toBe('antminer-s19-pro');
    expect(lookupModel('Antminer S21 Pro (Vnish 1.2.7)', 'vnish')?.id).toBe('vnish-s21-pro');
    expect(lookupModel('Antminer S21 Pro', 'antminer-stock')?.id).toBe('antminer-s21-pro');
    expect(lookupModel('M30S++_VH40', 'whatsminer')?.id).toBe('whatsminer-m30s-plus-plus-vh40');
    expect(lookupModel('M53S_VH30', 'whatsminer')?.id).toBe('whatsminer-m53s-vh30');
    expect(lookupModel('Antminer L7', 'antminer-stock')).toBeUndefined();
    expect(displayModel('Antminer S21+ Hyd.', 'antminer-stock')).toBe('S21+ Hydro');
    expect(displayModel('M30S++_VH41', 'whatsminer')).toBe('M30S++ VH40');
    expect(makeOf('M56S_VH30', 'whatsminer')).toBe('Whatsminer');
  });

  it('a hydro Whatsminer reporting two stopped fans: fan fault only while the model was unknown', () => {
    const r = reading('M53S_VH30', 'whatsminer', [1, 2, 3, 4].map(() => ({ chips: 204, rate: 65_000 })), [0, 0]);
    expect(r.boards.map((b) => b.expectedChips)).toEqual([204, 204, 204, 204]);
    expect(computeFaultLabels(r, lookupModel('M53S_VH30', 'whatsminer'))).toEqual([]);
    expect(computeFaultLabels(r, undefined)).toContain('fan-speed-abnormal');
  });

  it('expected boards and chips of a newly known model: a missing hashboard and missing chips are seen', () => {
    const model = lookupModel('Antminer S21 XP Hyd.', 'antminer-stock');
    expect([model?.hashboards, model?.chipsPerBoard, model?.fans]).toEqual([3, 160, 0]);
    const twoBoards = reading('Antminer S21 XP Hyd.', 'antminer-stock', [{ chips: 160, rate: 158_000 }, { chips: 152, rate: 150_000 }], []);
    expect(computeFaultLabels(twoBoards, model)).toEqual(expect.arrayContaining(['missing-hashboard', 'missing-chip']));
    // without the entry only the boards the unit lists are expected
    expect(computeFaultLabels(twoBoards, undefined)).not.toContain('missing-hashboard');
  });

  it('the catalogue ideal stands in when the firmware reports none (qualified = real ≥ 80 % of ideal)', () => {
    const model = lookupModel('Antminer S21 XP', 'antminer-stock');
    const r = reading('Antminer S21 XP', 'antminer-stock', [1, 2, 3].map(() => ({ chips: 91, rate: 85_000 })), [4300, 4320, 4310, 4290]);
    expect(computeFlags(r, model, [], true).qualified).toBe(true);
    expect(computeFlags(r, undefined, [], true).qualified).toBe(false);
    expect(computeFaultLabels(r, model)).toEqual([]);
  });
});
