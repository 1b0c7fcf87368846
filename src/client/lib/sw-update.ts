/**
 * Service-worker registration and the update handshake (offline-first-notes.md §3).
 * A new version never takes over by itself: when one is waiting, `onNeedRefresh` is called and the app
 * shows "update available — reload". Only when the user presses it do we post SKIP_WAITING and reload on
 * `controlling`, at most once per version (sessionStorage guard against reload loops during rolling deploys).
 * Both steps are held while anything registered with `holdUpdateWhile` holds (the outbox has writes to send)
 * or a form is dirty (dirty-forms.ts); they then happen by themselves once it clears.
 */
import { Workbox } from 'workbox-window';
import { anyFormDirty } from './dirty-forms';
import { readStorage, writeStorage } from './safe-storage';
import { isEffectivelyOnline } from './offline/connectivity';

export const SW_URL = '/sw.js';
export const SW_RELOADED_KEY = 'hf.sw-reloaded-version';
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export interface SwUpdateHandlers {
  /** A new version is installed and waiting; call `apply` when the user agrees to reload. */
  onNeedRefresh: (apply: () => void) => void;
  /** The app is now cached for offline use (first install). */
  onOfflineReady?: () => void;
  /** The user agreed, but the outbox or a dirty form holds the update: it happens by itself once they clear. */
  onHeld?: () => void;
}

/** Whether a reload for `version` may happen (false once this tab already reloaded for it). */
export function mayReloadFor(version: string, alreadyReloaded: string | null): boolean {
  return version === '' || alreadyReloaded !== version;
}

/** A reason to hold an update back (the outbox has writes to send, a form is dirty …). */
export type UpdateHold = () => boolean | Promise<boolean>;
const holds = new Set<UpdateHold>([anyFormDirty]);
export const UPDATE_HOLD_POLL_MS = 2000;

/** Holds every update (reload / skip waiting) while `check` answers true; returns the release. */
export function holdUpdateWhile(check: UpdateHold): () => void {
  holds.add(check);
  return () => holds.delete(check);
}

/** Whether something holds the update now (a failing check holds it too: never reload on doubt). */
export async function updateHeld(): Promise<boolean> {
  for (const check of holds) {
    try {
      if (await check()) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * Runs `run` once nothing holds the update, checking every UPDATE_HOLD_POLL_MS; `onHeld` is told once when it
 * has to wait. Returns cancel.
 */
export function whenUpdateFree(run: () => void, onHeld?: () => void, pollMs = UPDATE_HOLD_POLL_MS): () => void {
  let cancelled = false;
  let told = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const attempt = async () => {
    if (cancelled) return;
    if (await updateHeld()) {
      if (!told) {
        told = true;
        onHeld?.();
      }
      timer = setTimeout(() => void attempt(), pollMs);
      return;
    }
    if (!cancelled) run();
  };
  void attempt();
  return () => {
    cancelled = true;
    if (timer) clearTimeout(timer);
  };
}

let wb: Workbox | null = null;

async function versionOf(workbox: Workbox): Promise<string> {
  try {
    const v = await workbox.messageSW({ type: 'GET_VERSION' });
    return typeof v === 'string' ? v : '';
  } catch {
    return '';
  }
}

export function registerServiceWorker(handlers: SwUpdateHandlers): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD || wb) return;
  const workbox = new Workbox(SW_URL);
  wb = workbox;
  let userAccepted = false;

  let cancelWait: (() => void) | null = null;
  /** Runs the update step once nothing holds it (outbox empty, no dirty form). */
  const gated = (step: () => void) => () => {
    cancelWait?.();
    cancelWait = whenUpdateFree(step, handlers.onHeld);
  };
  const apply = gated(() => {
    userAccepted = true;
    workbox.messageSkipWaiting();
  });

  workbox.addEventListener('waiting', () => handlers.onNeedRefresh(apply));
  workbox.addEventListener('installed', (event) => {
    if (!event.isUpdate) handlers.onOfflineReady?.();
  });
  workbox.addEventListener('controlling', (event) => {
    if (!event.isUpdate) return;
    if (!userAccepted) {
      // Another tab applied the update: this page keeps running its version until the user reloads.
      handlers.onNeedRefresh(gated(() => window.location.reload()));
      return;
    }
    void versionOf(workbox).then((version) => {
      if (!mayReloadFor(version, readStorage('session', SW_RELOADED_KEY))) return;
      // The automatic reload (at most one per version) also waits for the outbox and dirty forms.
      whenUpdateFree(() => {
        if (!mayReloadFor(version, readStorage('session', SW_RELOADED_KEY))) return;
        writeStorage('session', SW_RELOADED_KEY, version);
        window.location.reload();
      }, handlers.onHeld);
    });
  });

  workbox.register().then(
    (registration) => {
      if (!registration) return;
      setInterval(() => {
        // Not while offline or while our server does not answer (connectivity.ts): the check would only fail.
        if (isEffectivelyOnline()) registration.update().catch((err: unknown) => console.error('service worker: update check failed', err));
      }, UPDATE_CHECK_MS);
    },
    (err: unknown) => console.error('service worker: registration failed', err),
  );
}
