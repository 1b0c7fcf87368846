import { describe, expect, it } from 'vitest';
import { NO_LIVE_READING, durationParts, firmwareText, formatFans, formatPercent, formatTemp, liveFigure } from './format-miner';

describe('miner display helpers', () => {
  it('splits an uptime into days, hours and minutes', () => {
    expect(durationParts(86_400 + 2 * 3600 + 5 * 60 + 59)).toEqual({ d: 1, h: 2, m: 5 });
    expect(durationParts(-5)).toEqual({ d: 0, h: 0, m: 0 });
  });

  it('formats temperatures, fans, percentages and firmware', () => {
    expect(formatTemp(65.25)).toBe('65.3 °C');
    expect(formatTemp(null)).toBe('-');
    expect(formatFans([4320, 4380])).toBe('4,320 / 4,380');
    expect(formatFans([])).toBe('-');
    expect(formatPercent(97.123)).toBe('97.1%');
    expect(firmwareText(null, '20240305.22.REL')).toBe('20240305.22.REL');
    expect(firmwareText(null, '')).toBe('-');
    expect(firmwareText('2024-07-11T12:00:00.000Z', 'x')).toMatch(/^2024-07-1[12]$/);
  });

  it('shows a live figure only while the miner is online', () => {
    expect(liveFigure(true, '237.92 TH/s')).toBe('237.92 TH/s');
    expect(liveFigure(false, '237.92 TH/s')).toBe(NO_LIVE_READING);
    expect(NO_LIVE_READING).toBe('—');
  });
});
