import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hideToast, showToast, useToasts } from './toasts';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows, replaces by id, closes itself and keeps the last three', () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      showToast({ id: 'a', message: 'first', autoClose: 1000 });
    });
    expect(result.current.map((t) => t.message)).toEqual(['first']);
    act(() => {
      showToast({ id: 'a', message: 'again', tone: 'error', autoClose: false });
    });
    expect(result.current).toHaveLength(1);
    expect(result.current[0]).toMatchObject({ id: 'a', message: 'again', tone: 'error' });
    act(() => vi.advanceTimersByTime(5000));
    expect(result.current).toHaveLength(1); // autoClose false: stays
    act(() => {
      for (const m of ['b', 'c', 'd']) showToast({ message: m, autoClose: 2000 });
    });
    expect(result.current.map((t) => t.message)).toEqual(['b', 'c', 'd']);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current).toEqual([]);
    act(() => hideToast('a'));
    expect(result.current).toEqual([]);
  });
});
