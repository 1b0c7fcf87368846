/**
 * The full console (every path but the technician's /field pages): Mantine, TanStack Query and the router.
 * Loaded by main.tsx; moving between it and the light field app (field-app/) is a full page load.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { initI18n } from '@client/lib/i18n';
import { FullScreenLoader } from '@client/components/page-loading';
import { trackLeaving } from '@client/features/field/lib/field-paths';
import { AppProviders, wireApiClient } from './providers';
import { createAppRouter } from './router';
import { startServiceWorker } from './sw-update-prompt';

export function startConsole(container: HTMLElement): void {
  trackLeaving();
  void initI18n();
  const router = createAppRouter();
  wireApiClient((to) => void router.navigate(to));

  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <Suspense fallback={<FullScreenLoader />}>
          <RouterProvider router={router} />
        </Suspense>
      </AppProviders>
    </StrictMode>,
  );

  startServiceWorker();
}
