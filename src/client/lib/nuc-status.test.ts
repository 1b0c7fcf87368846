import { describe, expect, it } from 'vitest';
import { nucLevel } from './nuc-status';

describe('nucLevel (spec 1 §2.2)', () => {
  it('hides the indicator with no status or no measured delay while online', () => {
    expect(nucLevel(null)).toBe('hidden');
    expect(nucLevel({ isOnline: true, netDelay: 0 })).toBe('hidden');
  });
  it('colours by delay with inclusive upper bounds', () => {
    expect(nucLevel({ isOnline: true, netDelay: 1 })).toBe('green');
    expect(nucLevel({ isOnline: true, netDelay: 200 })).toBe('green');
    expect(nucLevel({ isOnline: true, netDelay: 201 })).toBe('yellow');
    expect(nucLevel({ isOnline: true, netDelay: 500 })).toBe('yellow');
    expect(nucLevel({ isOnline: true, netDelay: 501 })).toBe('orange');
    expect(nucLevel({ isOnline: true, netDelay: 1000 })).toBe('orange');
    expect(nucLevel({ isOnline: true, netDelay: 1001 })).toBe('red');
  });
  it('shows "dropped" when offline, whatever the delay', () => {
    expect(nucLevel({ isOnline: false, netDelay: 0 })).toBe('dropped');
    expect(nucLevel({ isOnline: false, netDelay: 150 })).toBe('dropped');
  });
});
