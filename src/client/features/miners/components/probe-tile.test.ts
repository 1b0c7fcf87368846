import { describe, expect, it } from 'vitest';
import { HOT_FROM_C, convertTemp, tempBand, tempText } from './probe-tile';

describe('probe temperatures', () => {
  it('converts °C to °F and K', () => {
    expect(convertTemp(40, 'F')).toBeCloseTo(104);
    expect(convertTemp(40, 'K')).toBeCloseTo(313.15);
    expect(convertTemp(40, 'C')).toBe(40);
    expect(tempText(85.4, 'C')).toBe('85 °C');
    expect(tempText(40, 'K')).toBe('313.1 K');
    expect(tempText(null, 'F')).toBe('-');
  });

  it('bands at 80, 85 and 90 °C', () => {
    expect([null, 79.9, 80, 85, 90].map(tempBand)).toEqual(['none', 'ok', 'warm', 'hot', 'critical']);
  });

  it('states the hot threshold in the chosen unit', () => {
    expect(tempBand(HOT_FROM_C)).toBe('hot');
    expect(tempBand(HOT_FROM_C - 0.1)).toBe('warm');
    expect(tempText(HOT_FROM_C, 'C')).toBe('85 °C');
    expect(tempText(HOT_FROM_C, 'F')).toBe('185 °F');
    expect(tempText(HOT_FROM_C, 'K')).toBe('358.1 K');
  });
});
