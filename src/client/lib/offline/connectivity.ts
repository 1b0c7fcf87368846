/**
 * The page's effective connectivity: `navigator.onLine && !serverUnreachable`. navigator.onLine only says the
 * device has a network; on farm Wi-Fi whose access point has no route to the server (captive or broken uplink)
 * it stays true while every request fails. So the requests themselves tell:
 * - a request that got no answer from our server marks the server unreachable: fetch rejected (TypeError, or a
 *   time-out / abort that is not the caller's own cancel), the body could not be read, or the answer is not our
 *   JSON envelope (a proxy's 502/503/504 page, a captive portal's login page: our server answers every /api call
 *   with an envelope, errors and 404 included), or it is the service worker's cached copy (sw.ts marks those with
 *   SW_FALLBACK_HEADER: the network did not answer). Failures while navigator.onLine is false are not counted
 *   (the device being offline is the reason then), nor failures of requests that left before the last answer;
 * - any answer from our server (any status: a 4xx / 5xx envelope still means it is reachable) clears it.
 * Reported by api-client.ts (every console request) and the outbox's sender (outbox.ts, its own fetch).
 *
 * While unreachable and navigator.onLine is true, `startConnectivity()` probes GET /api/config/public (public,
 * no session, one small read) after 5 s, 10 s, 20 s, then every 30 s, and at once on the window's `online` event
 * and when the page becomes visible. When the server answers again the `subscribeServerReachable` listeners run:
 * the outbox and the delta sync take it as they take `online` (queued writes go out at once).
 * `useConnectivity()` → { online, reason: 'online' | 'offline' | 'server-unreachable' } for the UI; TanStack Query's
 * onlineManager follows the same state (query-client.ts).
 */
import { useSyncExternalStore } from 'react';

export type ConnectivityReason = 'online' | 'offline' | 'server-unreachable';

export interface Connectivity {
  online: boolean;
  reason: ConnectivityReason;
}

/** Delay before the n-th probe of one unreachable spell; the last one repeats. */
export const PROBE_BACKOFF_MS = [5_000, 10_000, 20_000, 30_000] as const;
/** A cheap public GET of our server (no session needed). */
export const PROBE_URL = '/api/config/public';
export const PROBE_TIMEOUT_MS = 10_000;
/** Header sw.ts adds to an answer it took from its cache because the network did not answer (same string there). */
export const SW_FALLBACK_HEADER = 'X-HF-Fallback';

const STATES: Record<ConnectivityReason, Connectivity> = {
  online: Object.freeze({ online: true, reason: 'online' }),
  offline: Object.freeze({ online: false, reason: 'offline' }),
  'server-unreachable': Object.freeze({ online: false, reason: 'server-unreachable' }),
};

export interface ConnectivityOptions {
  /** Tests: resolves true when our server answered. */
  probe?: () => Promise<boolean>;
}

let serverUnreachable = false;
/** Epoch ms of the last answer from our server. */
let lastAnswerAt = Number.NEGATIVE_INFINITY;
/** Probes scheduled in this unreachable spell (index into PROBE_BACKOFF_MS). */
let probeStep = 0;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeInFlight: Promise<boolean> | null = null;
let started = 0;
let stopper: (() => void) | null = null;
let probe: () => Promise<boolean> = defaultProbe;
const listeners = new Set<() => void>();
const reachableListeners = new Set<() => void>();

function navigatorOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Our answer envelope {code, msg, data} (any code). */
function isEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'code' in body;
}

/** The service worker answered from its cache: the network did not. */
function isSwFallback(res: Response): boolean {
  return typeof res.headers?.get === 'function' && res.headers.get(SW_FALLBACK_HEADER) !== null;
}

/** Our server answered this request: its envelope, not a proxy's page nor the service worker's cached copy. */
export function isServerAnswer(res: Response, body: unknown): boolean {
  return isEnvelope(body) && !isSwFallback(res);
}

async function defaultProbe(): Promise<boolean> {
  try {
    const res = await fetch(PROBE_URL, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    if (isSwFallback(res)) return false;
    return isEnvelope(await res.json());
  } catch {
    return false;
  }
}

export function getConnectivity(): Connectivity {
  if (!navigatorOnline()) return STATES.offline;
  return serverUnreachable ? STATES['server-unreachable'] : STATES.online;
}

/** navigator.onLine and the server answering (as far as the last requests tell). */
export function isEffectivelyOnline(): boolean {
  return getConnectivity().online;
}

function notify(): void {
  for (const l of listeners) l();
}

function clearProbeTimer(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
}

function scheduleProbe(): void {
  clearProbeTimer();
  if (!started || !serverUnreachable || !navigatorOnline()) return;
  const delay = PROBE_BACKOFF_MS[Math.min(probeStep, PROBE_BACKOFF_MS.length - 1)]!;
  probeStep += 1;
  probeTimer = setTimeout(() => void probeNow(), delay);
}

/** Our server answered a request (any status). */
export function reportServerAnswer(): void {
  lastAnswerAt = Date.now();
  if (!serverUnreachable) return;
  serverUnreachable = false;
  probeStep = 0;
  clearProbeTimer();
  notify();
  if (!navigatorOnline()) return;
  for (const l of [...reachableListeners]) {
    try {
      l();
    } catch (err) {
      console.error('connectivity listener failed', err);
    }
  }
}

/**
 * A request that left at `startedAt` got no answer from our server. Ignored while the device is offline and
 * when an answer came after that request left (a slow request timing out says nothing about the server).
 */
export function reportNetworkFailure(startedAt: number = Date.now()): void {
  if (!navigatorOnline() || startedAt < lastAnswerAt || serverUnreachable) return;
  serverUnreachable = true;
  probeStep = 0;
  notify();
  scheduleProbe();
}

/**
 * Asks the server now (while it is marked unreachable and the device is online); resolves true once it answered.
 * A failed probe schedules the next one of the backoff.
 */
export function probeNow(): Promise<boolean> {
  if (!serverUnreachable) return Promise.resolve(true);
  if (!navigatorOnline()) return Promise.resolve(false);
  if (probeInFlight) return probeInFlight;
  clearProbeTimer();
  const current = probe()
    .catch(() => false)
    .then((answered) => {
      if (probeInFlight === current) probeInFlight = null;
      if (answered) reportServerAnswer();
      else scheduleProbe();
      return answered;
    });
  probeInFlight = current;
  return current;
}

/** Runs `listener` each time the server answers again after being unreachable (device online). */
export function subscribeServerReachable(listener: () => void): () => void {
  reachableListeners.add(listener);
  return () => reachableListeners.delete(listener);
}

/** Starts the probing and its triggers (`online`, page visible); returns stop. Nested starts share one set. */
export function startConnectivity(options: ConnectivityOptions = {}): () => void {
  if (options.probe) probe = options.probe;
  started += 1;
  if (started === 1) {
    // A network again (perhaps another one): ask at once, and start the backoff over.
    const onOnline = () => {
      if (!serverUnreachable) return;
      probeStep = 0;
      void probeNow();
    };
    const onOffline = () => clearProbeTimer();
    const onVisible = () => {
      if (document.visibilityState === 'visible' && serverUnreachable && !probeInFlight) void probeNow();
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    // A failure reported before the start is probed too.
    if (serverUnreachable && !probeTimer) scheduleProbe();
    stopper = () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      document.removeEventListener('visibilitychange', onVisible);
      clearProbeTimer();
    };
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    started -= 1;
    if (started === 0) {
      stopper?.();
      stopper = null;
    }
  };
}

/** Runs `listener` on every change of the effective connectivity (`online` / `offline` events included). */
export function subscribeConnectivity(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** Live effective connectivity (re-renders on `online` / `offline` and when the server's reachability changes). */
export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribeConnectivity, getConnectivity, () => STATES.online);
}

/** Tests: forget the page-level state. */
export function resetConnectivityForTests(): void {
  stopper?.();
  stopper = null;
  started = 0;
  serverUnreachable = false;
  lastAnswerAt = Number.NEGATIVE_INFINITY;
  probeStep = 0;
  probeInFlight = null;
  probe = defaultProbe;
  clearProbeTimer();
  reachableListeners.clear();
}
