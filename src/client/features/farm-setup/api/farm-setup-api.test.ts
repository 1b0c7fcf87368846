import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getConnectivity, resetConnectivityForTests } from '@client/lib/offline/connectivity';
import { fetchAgentPackage } from './farm-setup-api';

beforeEach(() => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  resetConnectivityForTests();
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetConnectivityForTests();
});

const gzipAnswer = () =>
  new Response(new Uint8Array([0x1f, 0x8b, 8, 0]), { status: 200, headers: { 'content-type': 'application/gzip', 'content-disposition': 'attachment; filename="hashfield-agent-farm-a.tar.gz"' } });

describe('fetchAgentPackage and the page connectivity', () => {
  it('a failed download marks the server unreachable; the package marks it answering again', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(fetchAgentPackage('farm-a', 'en-US')).rejects.toThrow('Failed to fetch');
    expect(getConnectivity().reason).toBe('server-unreachable');

    vi.stubGlobal('fetch', vi.fn(async () => gzipAnswer()));
    const file = await fetchAgentPackage('farm-a', 'en-US');
    expect(file.fileName).toBe('hashfield-agent-farm-a.tar.gz');
    expect(getConnectivity().reason).toBe('online');
  });

  it("a proxy's error page is no answer of ours; a refusal in our envelope is", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })));
    await expect(fetchAgentPackage('farm-a', 'en-US')).rejects.toBeTruthy();
    expect(getConnectivity().reason).toBe('server-unreachable');

    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ code: 403, msg: 'No permission', data: null })));
    await expect(fetchAgentPackage('farm-a', 'en-US')).rejects.toThrow('No permission');
    expect(getConnectivity().reason).toBe('online');
  });
});
