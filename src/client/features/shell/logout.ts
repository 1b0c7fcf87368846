/**
 * Logout (spec 1 §7): GET /api/userv3/logout answers the address to go to. The persisted read cache, the selected
 * farm and the device's offline copies of the farms' data belong to the user, so they are cleared before leaving;
 * changes still waiting in the outbox stay for their author (lib/offline/outbox-user.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import { clearAgentKey } from '@client/lib/agent-key';
import { QUERY_CACHE_STORAGE_KEY } from '@client/lib/query-client';
import { writeStorage } from '@client/lib/safe-storage';
import { FIELD_SESSION_KEY } from '@client/lib/field-landing';
import { importWithRetry } from '@client/lib/import-retry';
import { setOutboxUser } from '@client/lib/offline/outbox-user';

/** Name of the service worker's runtime cache for the shell reads (sw/sw.ts). */
export const SHELL_API_CACHE = 'hf-shell-api';

export async function logout(queryClient: QueryClient, navigate: (to: string) => void): Promise<void> {
  let to = '/login';
  try {
    const answer = await api.get<string>('/api/userv3/logout', {}, { quiet401: true });
    if (typeof answer === 'string' && answer !== '') to = answer;
  } catch (err) {
    console.error('logout failed', err);
  }
  clearAgentKey();
  setOutboxUser(null);
  await importWithRetry(() => import('@client/lib/offline/sync'))
    .then((m) => m.forgetOfflineCaches())
    .catch((err: unknown) => console.error('logout: the offline caches were not cleared', err));
  queryClient.clear();
  writeStorage('local', QUERY_CACHE_STORAGE_KEY, null);
  // The light field app's copy of the user and farms (it opens offline from it) belongs to this user too.
  writeStorage('local', FIELD_SESSION_KEY, null);
  // The service worker's copy of the shell reads (user, farms, menus) belongs to this user too.
  if (typeof caches !== 'undefined') await caches.delete(SHELL_API_CACHE).catch(() => false);
  if (/^https?:\/\//i.test(to)) window.location.assign(to);
  else navigate(to);
}
