/**
 * Code split chunks on bad Wi-Fi: a dynamic import that fails (a dropped connection, a server busy restarting)
 * is tried again after a pause, twice by default, before the failure reaches an error boundary. React.lazy keeps
 * a rejected promise for good, so the retry has to happen inside the loader.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export const IMPORT_RETRY_DELAYS_MS = [1000, 3000] as const;

export async function importWithRetry<T>(
  load: () => Promise<T>,
  delaysMs: readonly number[] = IMPORT_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (err) {
      const delay = delaysMs[attempt];
      if (delay === undefined) throw err;
      console.warn(`loading part of the app failed, trying again in ${delay} ms`, err);
      await sleep(delay);
    }
  }
}

/** React.lazy over importWithRetry: a component (page, dialog, panel) whose code is loaded on demand. */
export function lazyWithRetry<P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: await importWithRetry(load) }));
}
