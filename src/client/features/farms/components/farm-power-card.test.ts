import { describe, expect, it } from 'vitest';
import { powerColor, powerShare } from './farm-power-card';

describe('farm power against its limit', () => {
  const p = (powerNowKw: number | null, powerLimitKw: number | null) => ({ powerNowKw, powerLimitKw, onlineMiners: 4, reportingMiners: 4 });

  it('is a share of the limit only with both a limit and a figure', () => {
    expect(powerShare(p(13.4, 12))).toBeCloseTo(111.67, 1);
    expect(powerShare(p(13.4, null))).toBeNull();
    expect(powerShare(p(null, 12))).toBeNull();
  });

  it('turns orange from 90 % and red over the limit', () => {
    expect([null, 50, 89.9, 90, 100, 100.1].map(powerColor)).toEqual(['gray', 'teal', 'teal', 'orange', 'orange', 'red']);
  });
});
