/**
 * Logout (spec 1 §7): GET /api/userv3/logout answers the address to go to. What every logout drops is in
 * lib/end-session.ts (the farm, the offline copies, the service worker's shell reads); the console also drops its
 * persisted read cache and the field app's copy of the user and farms, which belong to the user too.
 */
import type { QueryClient } from '@tanstack/react-query';
import { endSession, isExternalAddress } from '@client/lib/end-session';
import { QUERY_CACHE_STORAGE_KEY } from '@client/lib/query-client';
import { writeStorage } from '@client/lib/safe-storage';
import { FIELD_SESSION_KEY } from '@client/lib/field-landing';

export async function logout(queryClient: QueryClient, navigate: (to: string) => void): Promise<void> {
  const to = await endSession();
  queryClient.clear();
  writeStorage('local', QUERY_CACHE_STORAGE_KEY, null);
  // The light field app's copy of the user and farms (it opens offline from it).
  writeStorage('local', FIELD_SESSION_KEY, null);
  if (isExternalAddress(to)) window.location.assign(to);
  else navigate(to);
}
