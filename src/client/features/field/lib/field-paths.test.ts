import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isFieldPath, minerPath, navigateTo, parseFieldPath, usePathname } from './field-paths';

describe('field paths', () => {
  it('knows which addresses the light field app serves', () => {
    expect(isFieldPath('/field')).toBe(true);
    expect(isFieldPath('/field/')).toBe(true);
    expect(isFieldPath('/field/miner/m-1')).toBe(true);
    expect(isFieldPath('/field/miner/a%2Fb/')).toBe(true);
    expect(isFieldPath('/field/miner')).toBe(false);
    expect(isFieldPath('/field/miner/a/b')).toBe(false);
    expect(isFieldPath('/fields')).toBe(false);
    expect(isFieldPath('/')).toBe(false);
    expect(isFieldPath('/device/miner')).toBe(false);
  });

  it('parses the miner id (encoded) and falls back to the home', () => {
    expect(parseFieldPath('/field')).toEqual({ page: 'home' });
    expect(parseFieldPath(minerPath('a/b c'))).toEqual({ page: 'miner', minerId: 'a/b c' });
    expect(parseFieldPath('/field/miner/%E0%A4%A')).toEqual({ page: 'home' });
  });
});

describe('navigateTo', () => {
  beforeEach(() => void vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined));
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', '/');
  });

  it('moves between field pages without a reload and follows back', async () => {
    window.history.replaceState(null, '', '/field');
    const { result } = renderHook(() => usePathname());
    expect(result.current).toBe('/field');
    act(() => navigateTo(minerPath('m-7')));
    expect(result.current).toBe('/field/miner/m-7');
    expect(window.location.pathname).toBe('/field/miner/m-7');
    act(() => navigateTo('/field', { replace: true }));
    expect(result.current).toBe('/field');
    await act(async () => {
      window.history.back();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(result.current).toBe('/field');
  });
});
