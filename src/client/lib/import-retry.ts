/**
 * Code split chunks on bad Wi-Fi: a dynamic import that fails (a dropped connection, a server busy restarting)
 * is tried again after a pause, twice by default, before the failure reaches an error boundary. React.lazy keeps
 * a rejected promise for good, so the retry has to happen inside the loader.
 *
 * A browser that follows the HTML standard also keeps the failure in its module map: importing the same address
 * again answers the old error without asking the network (Chromium 150 does; later Chromium fetches again). So a
 * retry asks for the file named in the error under a new address (`?retry=n`, which the service worker's precache
 * ignores). A failure inside the chunk's own static imports names only the chunk; it goes to the error boundary.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export const IMPORT_RETRY_DELAYS_MS = [1000, 3000] as const;

/** The query parameter of a retried chunk's address (sw/sw.ts: the precache ignores it). */
export const RETRY_PARAM = 'retry';

/** The address a failed dynamic import names (Chromium: "Failed to fetch dynamically imported module: <url>"; Firefox: "error loading dynamically imported module: <url>"). */
export function failedModuleUrl(err: unknown): string | null {
  const m = /dynamically imported module:?\s+(\S+)/i.exec(err instanceof Error ? err.message : String(err));
  if (!m?.[1]) return null;
  try {
    return new URL(m[1]).href;
  } catch {
    return null;
  }
}

/** The address of the n-th retry of a module. */
export function retryUrl(url: string, attempt: number): string {
  const u = new URL(url);
  u.searchParams.set(RETRY_PARAM, String(attempt));
  return u.href;
}

const importUrl = (url: string): Promise<unknown> => import(/* @vite-ignore */ url);

/** Loads a module (`load`: `() => import('…')`), trying again after each of `delaysMs` when it fails. */
export async function importWithRetry<M>(
  load: () => Promise<M>,
  delaysMs: readonly number[] = IMPORT_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  importAgain: (url: string) => Promise<unknown> = importUrl,
): Promise<M> {
  let next = load;
  for (let attempt = 0; ; attempt++) {
    try {
      return await next();
    } catch (err) {
      const delay = delaysMs[attempt];
      if (delay === undefined) throw err;
      const url = failedModuleUrl(err);
      if (url) {
        const again = retryUrl(url, attempt + 1);
        next = () => importAgain(again) as Promise<M>;
      }
      console.warn(`loading part of the app failed, trying again in ${delay} ms`, err);
      await sleep(delay);
    }
  }
}

/** React.lazy over importWithRetry: a component (page, dialog, panel) of a module loaded on demand. */
export function lazyWithRetry<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: pick(await importWithRetry(load)) }));
}
