/**
 * App-wide providers: Mantine (theme, notifications, modals), TanStack Query with the persisted read cache,
 * and the API client wired to the current locale, farm and login redirect.
 */
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, configureApiClient } from '@client/lib/api-client';
import { getAgentKey } from '@client/lib/agent-key';
import { currentLocale } from '@client/lib/i18n';
import { QUERY_CACHE_MAX_AGE_MS, createQueryClient, createQueryPersister } from '@client/lib/query-client';
import { sessionKeys } from '@client/lib/session-api';
import { startOfflineWrites } from '@client/features/offline/start-offline-writes';
import { cssVariablesResolver, localisedTheme } from './theme';

export const queryClient = createQueryClient();
const persister = createQueryPersister();

/** Cache buster: a new build with another data shape drops the persisted cache. */
const CACHE_BUSTER = import.meta.env.VITE_APP_VERSION ?? 'v1';

/** `navigate` is the router's; code "401" drops the user and goes to the address the server gave. */
export function wireApiClient(navigate: (to: string) => void): void {
  configureApiClient({
    locale: currentLocale,
    agentKey: getAgentKey,
    onUnauthorized: (to) => {
      queryClient.removeQueries({ queryKey: sessionKeys.currentUser });
      if (/^https?:\/\//i.test(to)) {
        window.location.assign(to);
        return;
      }
      const target = to || '/login';
      if (window.location.pathname !== target) navigate(target);
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  // The offline outbox replays on start, reconnect, visibility, its timer and the SW sync message.
  useEffect(() => startOfflineWrites(queryClient), []);
  // No suspense here: the providers render before the catalogues arrive (Mantine's own label until they do).
  const { t, ready } = useTranslation('common', { useSuspense: false });
  const passwordToggle = ready ? t('passwordToggle') : undefined;
  const theme = useMemo(() => localisedTheme(passwordToggle), [passwordToggle]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <PersistQueryClientProvider
        client={queryClient}
        persistOptions={{
          persister,
          maxAge: QUERY_CACHE_MAX_AGE_MS,
          buster: CACHE_BUSTER,
          // Keep an answer whose later refetch failed (offline start): dropping it would lose the saved session
          // and farm on the next offline start. A 401 is not kept (the session layer logs out).
          dehydrateOptions: {
            shouldDehydrateQuery: (q) =>
              q.meta?.persist !== false &&
              q.state.data !== undefined &&
              (q.state.status === 'success' || !(q.state.error instanceof ApiError && q.state.error.status === 401)),
          },
        }}
        // Restored answers are shown at once but are never taken as fresh: the last write before a reload may
        // not have reached storage (throttled), so everything restored is refetched (kept as is when offline).
        onSuccess={() => void queryClient.invalidateQueries()}
      >
        <ModalsProvider>
          <Notifications position="bottom-right" limit={4} zIndex={1000} />
          {children}
        </ModalsProvider>
      </PersistQueryClientProvider>
    </MantineProvider>
  );
}
