import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@client/lib/api-client';
import {
  PROBE_URL,
  SW_FALLBACK_HEADER,
  getConnectivity,
  probeNow,
  reportNetworkFailure,
  reportServerAnswer,
  resetConnectivityForTests,
  startConnectivity,
  subscribeServerReachable,
  useConnectivity,
} from './connectivity';

let online = true;
function setOnline(value: boolean, event = true): void {
  online = value;
  if (event) window.dispatchEvent(new Event(value ? 'online' : 'offline'));
}

function setVisibility(state: 'visible' | 'hidden'): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** A probe whose answers the test decides (false: no answer from our server). */
function fakeProbe(answers: () => boolean = () => false) {
  return vi.fn(async () => answers());
}

/** Connectivity started with a fake probe, and a listener counting the "server reachable again" kicks. */
function startWatched(answers?: () => boolean) {
  const probe = fakeProbe(answers);
  const kick = vi.fn();
  const unsubscribe = subscribeServerReachable(kick);
  startConnectivity({ probe });
  return { probe, kick, unsubscribe };
}

beforeEach(() => {
  resetConnectivityForTests();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  online = true;
  vi.useFakeTimers();
});

afterEach(() => {
  resetConnectivityForTests();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('effective connectivity', () => {
  it('a request without an answer marks the server unreachable; any answer of our server clears it', () => {
    expect(getConnectivity()).toEqual({ online: true, reason: 'online' });
    reportNetworkFailure();
    expect(getConnectivity()).toEqual({ online: false, reason: 'server-unreachable' });
    reportServerAnswer();
    expect(getConnectivity()).toEqual({ online: true, reason: 'online' });
  });

  it('the device offline is the reason: its failures are not counted', () => {
    setOnline(false);
    reportNetworkFailure();
    expect(getConnectivity()).toEqual({ online: false, reason: 'offline' });
    setOnline(true);
    expect(getConnectivity()).toEqual({ online: true, reason: 'online' });
  });

  it('a request that left before the last answer says nothing (a slow one timing out)', () => {
    const leftAt = Date.now();
    vi.advanceTimersByTime(1000);
    reportServerAnswer();
    reportNetworkFailure(leftAt);
    expect(getConnectivity().reason).toBe('online');
    reportNetworkFailure(Date.now());
    expect(getConnectivity().reason).toBe('server-unreachable');
  });

  it('the hook re-renders on failures, answers and the device going offline', () => {
    const { result } = renderHook(() => useConnectivity());
    expect(result.current.reason).toBe('online');
    act(() => reportNetworkFailure());
    expect(result.current).toEqual({ online: false, reason: 'server-unreachable' });
    act(() => setOnline(false));
    expect(result.current).toEqual({ online: false, reason: 'offline' });
    act(() => {
      setOnline(true);
      reportServerAnswer();
    });
    expect(result.current).toEqual({ online: true, reason: 'online' });
  });
});

describe('probing while unreachable', () => {
  it('probes after 5 s, 10 s, 20 s, then every 30 s', async () => {
    const probe = fakeProbe();
    startConnectivity({ probe });
    reportNetworkFailure();
    const at: number[] = [];
    const t0 = Date.now();
    probe.mockImplementation(async () => {
      at.push(Date.now() - t0);
      return false;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5_000 + 10_000 + 20_000 + 30_000 + 30_000);
    expect(at).toEqual([5_000, 15_000, 35_000, 65_000, 95_000]);
    expect(getConnectivity().reason).toBe('server-unreachable');
  });

  it('no probe without a failure, nor before startConnectivity', async () => {
    const probe = fakeProbe();
    reportNetworkFailure();
    await vi.advanceTimersByTimeAsync(60_000);
    resetConnectivityForTests();
    startConnectivity({ probe });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).not.toHaveBeenCalled();
  });

  it('an answer to a probe clears the state, kicks the listeners once and stops probing', async () => {
    let answers = false;
    const { probe, kick } = startWatched(() => answers);
    reportNetworkFailure();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(kick).not.toHaveBeenCalled();
    answers = true;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(getConnectivity().reason).toBe('online');
    expect(kick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(kick).toHaveBeenCalledTimes(1);
  });

  it('an answer to any request ends the spell and kicks; an answer while reachable does not kick', async () => {
    const { probe, kick, unsubscribe } = startWatched();
    reportServerAnswer();
    expect(kick).not.toHaveBeenCalled();
    reportNetworkFailure();
    reportServerAnswer();
    expect(kick).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).not.toHaveBeenCalled();
    // A new spell starts the backoff from 5 s again.
    reportNetworkFailure();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(1);
    unsubscribe();
    reportServerAnswer();
    expect(kick).toHaveBeenCalledTimes(1);
  });

  it('no probe while navigator says offline; the online event probes at once', async () => {
    let answers = false;
    const { probe, kick } = startWatched(() => answers);
    reportNetworkFailure();
    setOnline(false);
    expect(getConnectivity().reason).toBe('offline');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(probe).not.toHaveBeenCalled();
    expect(await probeNow()).toBe(false);
    expect(probe).not.toHaveBeenCalled();
    // Back online: the server is still unreachable until it answers.
    setOnline(true);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(getConnectivity().reason).toBe('server-unreachable');
    answers = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(getConnectivity().reason).toBe('online');
    expect(kick).toHaveBeenCalledTimes(1);
  });

  it('the page becoming visible probes at once; stop() ends the probing', async () => {
    const probe = fakeProbe();
    const stop = startConnectivity({ probe });
    reportNetworkFailure();
    setVisibility('hidden');
    expect(probe).not.toHaveBeenCalled();
    setVisibility('visible');
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(120_000);
    setVisibility('visible');
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('the default probe asks GET /api/config/public; only our envelope from the network counts', async () => {
    const answer = (body: string, headers: Record<string, string> = {}) => new Response(body, { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
    const fetchFn = vi.fn<typeof fetch>(async () => answer('{"code":0,"msg":"success","data":{}}', { [SW_FALLBACK_HEADER]: '1' }));
    vi.stubGlobal('fetch', fetchFn);
    startConnectivity();
    reportNetworkFailure();
    expect(await probeNow()).toBe(false); // the service worker's copy
    expect(fetchFn.mock.calls[0]?.[0]).toBe(PROBE_URL);
    fetchFn.mockImplementation(async () => answer('<html>Wi-Fi login</html>'));
    expect(await probeNow()).toBe(false); // a captive portal
    fetchFn.mockImplementation(async () => answer('{"code":500,"msg":"Server error","data":null}'));
    expect(await probeNow()).toBe(true); // our server, even failing
    expect(getConnectivity().reason).toBe('online');
  });
});

describe('api-client reports', () => {
  const envelope = (status: number, code: number | string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify({ code, msg: code === 0 ? 'success' : 'failed', data: code === 0 ? { ok: true } : null }), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });

  it('a fetch rejection marks unreachable; an error envelope (4xx / 5xx) is an answer', async () => {
    const fetchFn = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.stubGlobal('fetch', fetchFn);
    await expect(api.get('/api/x')).rejects.toThrow(TypeError);
    expect(getConnectivity().reason).toBe('server-unreachable');
    fetchFn.mockImplementation(async () => envelope(500, 500));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 500 });
    expect(getConnectivity().reason).toBe('online');
    fetchFn.mockImplementation(async () => envelope(403, 403));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 403 });
    expect(getConnectivity().reason).toBe('online');
  });

  it("a proxy's 502 page is no answer of our server", async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>502 Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 502 });
    expect(getConnectivity().reason).toBe('server-unreachable');
  });

  it("the service worker's cached copy is returned but is no answer of our server", async () => {
    vi.stubGlobal('fetch', async () => envelope(200, 0, { [SW_FALLBACK_HEADER]: '1' }));
    await expect(api.get('/api/userv2/userCurrent')).resolves.toEqual({ ok: true });
    expect(getConnectivity().reason).toBe('server-unreachable');
    vi.stubGlobal('fetch', async () => envelope(200, 0));
    await expect(api.get('/api/userv2/userCurrent')).resolves.toEqual({ ok: true });
    expect(getConnectivity().reason).toBe('online');
  });

  it("the caller's own cancel is not a failure", async () => {
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      init.signal?.throwIfAborted();
      return envelope(200, 0);
    });
    const cancel = new AbortController();
    cancel.abort();
    await expect(api.get('/api/x', undefined, { signal: cancel.signal })).rejects.toThrow();
    expect(getConnectivity().reason).toBe('online');
  });
});
