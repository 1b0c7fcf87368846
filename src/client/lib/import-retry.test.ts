import { describe, expect, it, vi } from 'vitest';
import { importWithRetry } from './import-retry';

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
});
