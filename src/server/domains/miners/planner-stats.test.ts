import { describe, expect, it } from 'vitest';
import { needsAnalyse } from './planner-stats';

describe('needsAnalyse', () => {
  it('analyses a newly filled farm and big changes, not the steady cycle', () => {
    expect(needsAnalyse(undefined, 20_000)).toBe(true);
    expect(needsAnalyse(undefined, 50)).toBe(false);
    expect(needsAnalyse(20_000, 20_000)).toBe(false);
    expect(needsAnalyse(20_000, 21_000)).toBe(false);
    expect(needsAnalyse(20_000, 30_000)).toBe(true);
    expect(needsAnalyse(2_000, 100)).toBe(true);
  });
});
