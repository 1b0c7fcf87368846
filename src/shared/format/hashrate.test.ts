import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatHashrate } from './hashrate';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('formatHashrate', () => {
  it('chooses a readable unit with separators', () => {
    expect(formatHashrate(110_000)).toBe('110.00 TH/s');
    expect(formatHashrate(95, 'TH/s', 1)).toBe('95.0 TH/s');
    expect(formatHashrate(1234, 'PH/s')).toBe('1.23 EH/s');
    expect(formatHashrate(2_500_000_000, 'EH/s', 0)).toBe('2,500,000,000 EH/s');
    expect(formatHashrate(0)).toBe('0.00 GH/s');
    expect(formatHashrate('500', 'MH/s')).toBe('500.00 MH/s');
  });

  it('gives - for missing values and unsupported units', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(formatHashrate(null)).toBe('-');
    expect(formatHashrate(1, 'ZH/s')).toBe('-');
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
