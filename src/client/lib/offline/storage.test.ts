import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PERSIST_ANSWER_KEY, readStorageEstimate, requestPersistence, resetPersistenceForTests, useStorageEstimate } from './storage';

function fakeStorage(over: Partial<Record<'persist' | 'persisted' | 'estimate', unknown>> = {}) {
  const sm = {
    persist: vi.fn(async () => true),
    persisted: vi.fn(async () => false),
    estimate: vi.fn(async () => ({ usage: 10, quota: 100 })),
    ...over,
  };
  Object.defineProperty(navigator, 'storage', { configurable: true, value: sm });
  return sm;
}

beforeEach(() => {
  resetPersistenceForTests();
  localStorage.clear();
});

afterEach(() => {
  Object.defineProperty(navigator, 'storage', { configurable: true, value: undefined });
});

describe('requestPersistence', () => {
  it('asks once and remembers a grant', async () => {
    const sm = fakeStorage();
    expect(await requestPersistence()).toBe(true);
    expect(await requestPersistence()).toBe(true);
    expect(sm.persist).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(PERSIST_ANSWER_KEY)).toBe('granted');
  });

  it('a refusal is remembered: the next page load does not ask again', async () => {
    const sm = fakeStorage({ persist: vi.fn(async () => false) });
    expect(await requestPersistence()).toBe(false);
    expect(localStorage.getItem(PERSIST_ANSWER_KEY)).toBe('denied');
    resetPersistenceForTests();
    expect(await requestPersistence()).toBe(false);
    expect(sm.persist).toHaveBeenCalledTimes(1);
  });

  it('already persistent: does not ask', async () => {
    const sm = fakeStorage({ persisted: vi.fn(async () => true) });
    expect(await requestPersistence()).toBe(true);
    expect(sm.persist).not.toHaveBeenCalled();
  });

  it('no StorageManager: null', async () => {
    Object.defineProperty(navigator, 'storage', { configurable: true, value: undefined });
    expect(await requestPersistence()).toBeNull();
  });
});

describe('storage estimate', () => {
  it('reports usage, quota, persistence and warns above 80 %', async () => {
    fakeStorage({ estimate: vi.fn(async () => ({ usage: 81, quota: 100 })), persisted: vi.fn(async () => true) });
    expect(await readStorageEstimate()).toEqual({ usage: 81, quota: 100, persisted: true, warn: true });
    fakeStorage({ estimate: vi.fn(async () => ({ usage: 80, quota: 100 })) });
    expect(await readStorageEstimate()).toEqual({ usage: 80, quota: 100, persisted: false, warn: false });
  });

  it('absent APIs give null fields and no warning', async () => {
    Object.defineProperty(navigator, 'storage', { configurable: true, value: undefined });
    expect(await readStorageEstimate()).toEqual({ usage: null, quota: null, persisted: null, warn: false });
    fakeStorage({ estimate: undefined, persisted: undefined });
    expect(await readStorageEstimate()).toEqual({ usage: null, quota: null, persisted: null, warn: false });
  });

  it('useStorageEstimate gives the estimate and refreshes when the page becomes visible', async () => {
    const estimate = vi.fn(async () => ({ usage: 50, quota: 100 }));
    fakeStorage({ estimate });
    const { result } = renderHook(() => useStorageEstimate());
    expect(result.current).toEqual({ usage: null, quota: null, persisted: null, warn: false });
    await waitFor(() => expect(result.current).toEqual({ usage: 50, quota: 100, persisted: false, warn: false }));
    estimate.mockImplementation(async () => ({ usage: 95, quota: 100 }));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(result.current.warn).toBe(true));
    expect(result.current.usage).toBe(95);
  });
});
