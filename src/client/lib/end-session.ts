/**
 * What every logout does (the console's user menu, the field app's menu), before each goes to the address the
 * server answers: the session ends on the server, the selected farm is forgotten, the outbox stops sending under
 * this user (their waiting changes stay for them: offline/outbox-user.ts), the device's copies of the farms' data
 * are dropped (offline/sync.ts `forgetOfflineCaches`, loaded lazily so Dexie stays out of the console's first chunk),
 * and so is the service worker's copy of the shell reads (user, farms, menus).
 */
import { api } from './api-client';
import { clearAgentKey } from './agent-key';
import { importWithRetry } from './import-retry';
import { setOutboxUser } from './offline/outbox-user';

/** How long a logout waits for the offline copies to be dropped. */
const CLEAR_WAIT_MS = 3000;

/** The service worker's runtime cache of the shell reads: the name sw/sw.ts gives it. */
export const SHELL_API_CACHE = 'hf-shell-api';

/** Ends the session; resolves to where to go next (GET /api/userv3/logout's answer, else /login). */
export async function endSession(): Promise<string> {
  let to = '/login';
  try {
    const answer = await api.get<string>('/api/userv3/logout', {}, { quiet401: true });
    if (typeof answer === 'string' && answer !== '') to = answer;
  } catch (err) {
    console.error('logout failed', err);
  }
  clearAgentKey();
  setOutboxUser(null);
  const clearing = importWithRetry(() => import('./offline/sync'))
    .then((m) => m.forgetOfflineCaches())
    .catch((err: unknown) => console.error('logout: the offline caches were not cleared', err));
  // A sync page still arriving over bad Wi-Fi (or a database held by an old tab) does not hold the user here: the
  // clear goes on meanwhile, and the next session of another user clears the caches before its first sync anyway.
  await Promise.race([clearing, new Promise((resolve) => setTimeout(resolve, CLEAR_WAIT_MS))]);
  if (typeof caches !== 'undefined') await caches.delete(SHELL_API_CACHE).catch(() => false);
  return to;
}

/** An address of another site (a single sign-on's logout page) is left for with a full page load. */
export function isExternalAddress(to: string): boolean {
  return /^https?:\/\//i.test(to);
}
