/// <reference lib="webworker" />
/**
 * Hashfield service worker (Workbox 7, vite-plugin-pwa injectManifest, built as iife).
 * - Precaches the whole build (self.__WB_MANIFEST): app shell, lazy page chunks, locale catalogues, icons.
 * - SPA navigations fall back to the precached index.html, except /api (API, Swagger UI).
 * - The shell's start-up reads are NetworkFirst so the console opens offline with the last user and farm; an
 *   answer from that cache carries X-HF-Fallback (the page then knows the server did not answer).
 * - A new version waits until the page posts SKIP_WAITING (the user pressed "reload"); never automatically.
 * - Background Sync (where the browser has SyncManager): the page registers the tag `hf-outbox` when it queues
 *   an offline write; on `sync` this worker asks its open pages to replay their outbox (the outbox lives in the
 *   page, lib/offline/outbox.ts). Without SyncManager nothing changes: the pages replay on their own triggers.
 */
import { clientsClaim } from 'workbox-core';
import type { WorkboxPlugin } from 'workbox-core/types';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const manifest = self.__WB_MANIFEST;

/** The build's identity: a hash of the precache revisions (answers GET_VERSION for the reload guard). */
function buildVersion(entries: (PrecacheEntry | string)[]): string {
  const text = entries.map((e) => (typeof e === 'string' ? e : `${e.url}@${e.revision ?? ''}`)).sort().join('|');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
const VERSION = buildVersion(manifest);

export const SHELL_API_CACHE = 'hf-shell-api';
const SHELL_API_PATHS = new Set(['/api/config/public', '/api/userv2/userCurrent', '/api/role/userAgentMenus', '/api/options/agent']);
/** Same string as SW_FALLBACK_HEADER in src/client/lib/offline/connectivity.ts. */
const FALLBACK_HEADER = 'X-HF-Fallback';

/**
 * NetworkFirst reads its cache only when the network did not answer (failure or time-out): such an answer says so
 * in a header, so the page does not take the copy for the server being reachable (connectivity.ts).
 */
const markFallback: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse;
    const headers = new Headers(cachedResponse.headers);
    headers.set(FALLBACK_HEADER, '1');
    return new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

cleanupOutdatedCaches();
// `retry`: a chunk asked for again under a new address after a failed import (src/client/lib/import-retry.ts); workbox's defaults besides
precacheAndRoute(manifest, { ignoreURLParametersMatching: [/^utm_/, /^fbclid$/, /^retry$/] });

registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(\/|$)/] }));

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && SHELL_API_PATHS.has(url.pathname),
  new NetworkFirst({
    cacheName: SHELL_API_CACHE,
    networkTimeoutSeconds: 5,
    plugins: [new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 7 * 24 * 60 * 60 }), markFallback],
  }),
);

// The first install takes control at once (nothing older to disturb); updates wait for SKIP_WAITING.
clientsClaim();

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  else if (data?.type === 'GET_VERSION') event.ports[0]?.postMessage(VERSION);
});

/** Same strings as OUTBOX_SYNC_TAG / OUTBOX_REPLAY_MESSAGE in src/client/lib/offline/outbox.ts. */
const OUTBOX_SYNC_TAG = 'hf-outbox';
const OUTBOX_REPLAY_MESSAGE = 'HF_OUTBOX_REPLAY';

interface OutboxSyncEvent extends ExtendableEvent {
  readonly tag: string;
}

async function askPagesToReplay(): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage({ type: OUTBOX_REPLAY_MESSAGE });
}

self.addEventListener('sync' as keyof ServiceWorkerGlobalScopeEventMap, ((event: OutboxSyncEvent) => {
  if (event.tag === OUTBOX_SYNC_TAG) event.waitUntil(askPagesToReplay());
}) as EventListener);
