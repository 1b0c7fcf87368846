import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { initI18n } from '@client/lib/i18n';
import { FullScreenLoader } from '@client/components/page-loading';
import { AppProviders, wireApiClient } from './app/providers';
import { createAppRouter } from './app/router';
import { startServiceWorker } from './app/sw-update-prompt';

void initI18n();
const router = createAppRouter();
wireApiClient((to) => void router.navigate(to));

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing in index.html');

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
