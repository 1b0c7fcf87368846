/**
 * Start of the light field app (main.tsx loads it for /field and /field/miner/:id): plain CSS, i18next with
 * the field namespaces, the API client (401 → the console's login page), the offline write path (miner write
 * kinds, the server-reachability probe, the outbox replayer and its triggers, the update hold while writes wait)
 * and the service worker.
 */
import './field-app.css';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiClient } from '@client/lib/api-client';
import { getAgentKey } from '@client/lib/agent-key';
import { currentLocale } from '@client/lib/i18n';
import { startConnectivity } from '@client/lib/offline/connectivity';
import { registerMinerWrites } from '@client/lib/offline/miner-writes';
import { outboxHoldsUpdate, startOutbox } from '@client/lib/offline/outbox';
import { holdUpdateWhile } from '@client/lib/sw-update';
import { LoadBoundary } from '@client/features/field/components/load-boundary';
import { FieldApp } from './field-app';
import { initFieldI18n } from './field-i18n';
import { goToLogin } from './field-session';
import { startFieldServiceWorker } from './sw-prompt';

function BootSpinner() {
  return (
    <div className="hf-loading hf-loading-full" role="status" aria-label="…">
      <span className="hf-spinner" aria-hidden />
    </div>
  );
}

export function startFieldApp(container: HTMLElement): void {
  void initFieldI18n();
  configureApiClient({ locale: currentLocale, agentKey: getAgentKey, onUnauthorized: goToLogin });
  registerMinerWrites();
  startConnectivity();
  startOutbox({ locale: currentLocale });
  holdUpdateWhile(outboxHoldsUpdate);

  createRoot(container).render(
    <StrictMode>
      <LoadBoundary full>
        <Suspense fallback={<BootSpinner />}>
          <FieldApp />
        </Suspense>
      </LoadBoundary>
    </StrictMode>,
  );

  startFieldServiceWorker();
}
