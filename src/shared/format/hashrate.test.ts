import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatHashrate, formatHashrateTicks } from './hashrate';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('formatHashrate', () => {
  it('chooses a readable unit with separators', () => {
    expect(formatHashrate(110_000)).toBe('110.00 TH/s');
    expect(formatHashrate(95, 'TH/s', 1)).toBe('95.0 TH/s');
    expect(formatHashrate(1234, 'PH/s')).toBe('1.23 EH/s');
    expect(formatHashrate(2_500_000_000, 'EH/s', 0)).toBe('2,500,000,000 EH/s');
    expect(formatHashrate(0)).toBe('0.00 TH/s');
    expect(formatHashrate('500', 'MH/s')).toBe('500.00 MH/s');
  });

  it('gives - for missing values and unsupported units', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(formatHashrate(null)).toBe('-');
    expect(formatHashrate(1, 'ZH/s')).toBe('-');
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

describe('formatHashrateTicks', () => {
  it('writes every tick in the unit of the largest one, zero included', () => {
    expect(formatHashrateTicks([0, 50_000, 100_000, 150_000])).toEqual(['0 TH/s', '50 TH/s', '100 TH/s', '150 TH/s']);
    expect(formatHashrateTicks([0, 10_000_000, 20_000_000])).toEqual(['0 PH/s', '10 PH/s', '20 PH/s']);
  });

  it('uses as many decimals as the ticks need', () => {
    expect(formatHashrateTicks([0, 2_500, 5_000])).toEqual(['0.0 TH/s', '2.5 TH/s', '5.0 TH/s']);
    expect(formatHashrateTicks([0, 250, 500, 750, 1_000])).toEqual(['0.00 TH/s', '0.25 TH/s', '0.50 TH/s', '0.75 TH/s', '1.00 TH/s']);
    expect(formatHashrateTicks([0, 0.2, 0.4])).toEqual(['0 MH/s', '200 MH/s', '400 MH/s']);
  });

  it('reads a top of exactly one unit in that unit, and an axis of zeros in GH/s', () => {
    expect(formatHashrateTicks([0, 0.5, 1])).toEqual(['0.0 GH/s', '0.5 GH/s', '1.0 GH/s']);
    expect(formatHashrateTicks([0])).toEqual(['0 TH/s']);
  });
});
