import { describe, expect, it } from 'vitest';
import { progressFinished, progressPercent } from './batch-progress';

describe('batch progress figures', () => {
  it('computes progress and when polling stops', () => {
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 0, total: 0 })).toBe(100);
    expect(progressPercent({ done: 5, total: 3 })).toBe(100);
    expect(progressFinished(undefined)).toBe(false);
    expect(progressFinished({ status: 'running', done: 2, total: 3 })).toBe(false);
    expect(progressFinished({ status: 'running', done: 3, total: 3 })).toBe(true);
    expect(progressFinished({ status: 'done', done: 0, total: 3 })).toBe(true);
  });
});
