/**
 * Service-worker registration and the update handshake (offline-first-notes.md §3).
 * A new version never takes over by itself: when one is waiting, `onNeedRefresh` is called and the app
 * shows "update available — reload". Only when the user presses it do we post SKIP_WAITING and reload on
 * `controlling`, at most once per version (sessionStorage guard against reload loops during rolling deploys).
 */
import { Workbox } from 'workbox-window';
import { readStorage, writeStorage } from './safe-storage';

export const SW_URL = '/sw.js';
export const SW_RELOADED_KEY = 'hf.sw-reloaded-version';
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export interface SwUpdateHandlers {
  /** A new version is installed and waiting; call `apply` when the user agrees to reload. */
  onNeedRefresh: (apply: () => void) => void;
  /** The app is now cached for offline use (first install). */
  onOfflineReady?: () => void;
}

/** Whether a reload for `version` may happen (false once this tab already reloaded for it). */
export function mayReloadFor(version: string, alreadyReloaded: string | null): boolean {
  return version === '' || alreadyReloaded !== version;
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

  const apply = () => {
    userAccepted = true;
    workbox.messageSkipWaiting();
  };

  workbox.addEventListener('waiting', () => handlers.onNeedRefresh(apply));
  workbox.addEventListener('installed', (event) => {
    if (!event.isUpdate) handlers.onOfflineReady?.();
  });
  workbox.addEventListener('controlling', (event) => {
    if (!event.isUpdate) return;
    if (!userAccepted) {
      // Another tab applied the update: this page keeps running its version until the user reloads.
      handlers.onNeedRefresh(() => window.location.reload());
      return;
    }
    void versionOf(workbox).then((version) => {
      if (!mayReloadFor(version, readStorage('session', SW_RELOADED_KEY))) return;
      writeStorage('session', SW_RELOADED_KEY, version);
      window.location.reload();
    });
  });

  workbox.register().then(
    (registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) registration.update().catch((err: unknown) => console.error('service worker: update check failed', err));
      }, UPDATE_CHECK_MS);
    },
    (err: unknown) => console.error('service worker: registration failed', err),
  );
}
