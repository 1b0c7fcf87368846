/**
 * Which addresses belong to the light field app, and a tiny history router for them (no react-router in the
 * field app's graph). Any other address is a full page load into the console.
 */
import { useSyncExternalStore } from 'react';

export const FIELD_HOME_PATH = '/field';
const MINER_PREFIX = '/field/miner/';

/** /field and /field/miner/:minerId (a trailing slash allowed). */
export function isFieldPath(pathname: string): boolean {
  return /^\/field\/?$/.test(pathname) || /^\/field\/miner\/[^/]+\/?$/.test(pathname);
}

export type FieldRoute = { page: 'home' } | { page: 'miner'; minerId: string };

export function parseFieldPath(pathname: string): FieldRoute {
  if (pathname.startsWith(MINER_PREFIX)) {
    const raw = pathname.slice(MINER_PREFIX.length).replace(/\/$/, '');
    if (raw) {
      try {
        return { page: 'miner', minerId: decodeURIComponent(raw) };
      } catch {
        return { page: 'home' };
      }
    }
  }
  return { page: 'home' };
}

export const minerPath = (minerId: string) => `${MINER_PREFIX}${encodeURIComponent(minerId)}`;

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/** Goes to `to`: inside the field app without a reload, anywhere else with a full page load. */
export function navigateTo(to: string, opts: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin || !isFieldPath(url.pathname)) {
    if (opts.replace) window.location.replace(url.href);
    else window.location.assign(url.href);
    return;
  }
  if (opts.replace) window.history.replaceState(null, '', url.href);
  else window.history.pushState(null, '', url.href);
  window.scrollTo(0, 0);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const getPath = () => window.location.pathname;

/** The current pathname (re-renders on navigateTo and back/forward). */
export function usePathname(): string {
  return useSyncExternalStore(subscribe, getPath, getPath);
}

let leaving = false;

/**
 * Notes when the document starts leaving (the user typed an address, followed a link, reloaded): the console's
 * hand-over to the field app must not override a navigation already under way. Call once per document.
 */
export function trackLeaving(): void {
  window.addEventListener('beforeunload', () => {
    leaving = true;
  });
  // Back in this document from the back/forward cache: it is not leaving any more.
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
}

export function isLeaving(): boolean {
  return leaving;
}
