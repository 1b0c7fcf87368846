import { describe, expect, it, vi } from 'vitest';
import { failedModuleUrl, importWithRetry, retryUrl } from './import-retry';

describe('importWithRetry', () => {
  it('answers the first successful load, pausing the given delays between failures', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('net')).mockRejectedValueOnce(new Error('net')).mockResolvedValue('chunk');
    const pauses: number[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(importWithRetry(load, [10, 20], async (ms) => void pauses.push(ms))).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(3);
    expect(pauses).toEqual([10, 20]);
    warn.mockRestore();
  });

  it('gives up with the last error once the delays are used up', async () => {
    let n = 0;
    const load = () => Promise.reject(new Error(`failure ${++n}`));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(importWithRetry(load, [1], async () => undefined)).rejects.toThrow('failure 2');
    expect(n).toBe(2);
    warn.mockRestore();
  });

  it('does not retry a load that succeeds', async () => {
    const load = vi.fn().mockResolvedValue(1);
    await expect(importWithRetry(load, [5], async () => undefined)).resolves.toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks for the file a failed import names under a new address each time (the module map keeps the failure)', async () => {
    const url = 'https://farm.example/assets/model-stats-page-abc.js';
    const fail = (u: string) => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${u}`));
    const load = vi.fn(() => fail(url));
    const asked: string[] = [];
    const again = vi.fn(async (u: string) => {
      asked.push(u);
      return asked.length < 2 ? fail(u) : { page: 'module' };
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(importWithRetry(load, [1, 1], async () => undefined, again)).resolves.toEqual({ page: 'module' });
    expect(load).toHaveBeenCalledTimes(1);
    expect(asked).toEqual([`${url}?retry=1`, `${url}?retry=2`]);
    warn.mockRestore();
  });
});

describe('failedModuleUrl and retryUrl', () => {
  it("read Chromium's and Firefox's messages; anything else has no address", () => {
    expect(failedModuleUrl(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8080/assets/a-1.js'))).toBe('http://127.0.0.1:8080/assets/a-1.js');
    expect(failedModuleUrl(new TypeError('error loading dynamically imported module: https://x.example/b.js?retry=1'))).toBe('https://x.example/b.js?retry=1');
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull();
    expect(failedModuleUrl('Failed to fetch dynamically imported module: not-a-url')).toBeNull();
  });

  it('replaces an earlier retry number and keeps other parameters', () => {
    expect(retryUrl('https://x.example/b.js?retry=1', 2)).toBe('https://x.example/b.js?retry=2');
    expect(retryUrl('https://x.example/b.js?v=3', 1)).toBe('https://x.example/b.js?v=3&retry=1');
  });
});
