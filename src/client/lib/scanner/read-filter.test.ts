import { describe, expect, it } from 'vitest';
import { ReadFilter } from './read-filter';

describe('ReadFilter', () => {
  it('takes a value only on the second equal consecutive read', () => {
    const f = new ReadFilter();
    expect(f.read('A', 0)).toBeNull();
    expect(f.read('A', 100)).toBe('A');
  });

  it('never takes a single misread frame between two different values', () => {
    const f = new ReadFilter();
    expect(f.read('A', 0)).toBeNull();
    expect(f.read('B', 100)).toBeNull();
    expect(f.read('A', 200)).toBeNull();
    expect(f.read('A', 300)).toBe('A');
  });

  it('restarts the pair after a frame with nothing decoded', () => {
    const f = new ReadFilter();
    f.read('A', 0);
    f.miss();
    expect(f.read('A', 200)).toBeNull();
    expect(f.read('A', 300)).toBe('A');
  });

  it('ignores repeats of the value just taken for about 2 s, then takes it again', () => {
    const f = new ReadFilter({ repeatMs: 2000 });
    f.read('A', 0);
    expect(f.read('A', 100)).toBe('A');
    expect(f.read('A', 200)).toBeNull();
    expect(f.read('A', 300)).toBeNull();
    expect(f.read('A', 1900)).toBeNull();
    expect(f.read('A', 2200)).toBeNull();
    expect(f.read('A', 2300)).toBe('A');
  });

  it('takes another value at once, and reads too far apart are not a pair', () => {
    const f = new ReadFilter({ pairWindowMs: 1000 });
    f.read('A', 0);
    expect(f.read('A', 50)).toBe('A');
    f.read('B', 100);
    expect(f.read('B', 150)).toBe('B');
    f.read('C', 200);
    expect(f.read('C', 1500)).toBeNull();
    expect(f.read('C', 1600)).toBe('C');
  });
});
