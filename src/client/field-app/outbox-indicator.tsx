/**
 * Header indicator: online / offline / server unreachable (lib/offline/connectivity.ts), the number of changes
 * waiting (badge) and of changes the server refused (red). Opens the sync panel (loaded when first opened). A 401 that pauses the outbox turns it orange and
 * shows the session banner at the bottom of every field page.
 */
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyWithRetry } from '@client/lib/import-retry';
import { useOutboxStatus } from '@client/lib/offline/outbox-status';
import { SessionExpiredBanner } from './session-expired-banner';

const SyncPanel = lazyWithRetry(() => import('./sync-panel'), (m) => m.SyncPanel);

export function OutboxIndicator() {
  const { t } = useTranslation('offline');
  const { online, reason, unreachable, counts, waiting, paused, label, hint } = useOutboxStatus();
  const [opened, setOpened] = useState(false);
  const described = hint ? `${label}. ${hint}` : label;
  const tone = paused ? 'is-paused' : unreachable ? 'is-unreachable' : !online ? 'is-offline' : waiting > 0 ? 'is-pending' : 'is-online';
  return (
    <>
      <button
        type="button"
        className={`hf-indicator ${tone}`}
        title={described}
        aria-label={`${t('indicator.open')}: ${described}`}
        onClick={() => setOpened(true)}
        data-testid="outbox-indicator"
        data-online={online}
        data-reason={reason}
        data-pending={waiting}
        data-dead={counts.dead}
        data-paused={paused}
      >
        <span aria-hidden>{paused ? '🔒' : unreachable ? '⚠' : online ? '☁' : '⊘'}</span>
        {waiting > 0 && (
          <span className="hf-count hf-count-blue" data-testid="outbox-pending-count">
            {waiting}
          </span>
        )}
        <span className="hf-count hf-count-red" hidden={counts.dead === 0} data-testid="outbox-dead-count" data-count={counts.dead}>
          {counts.dead}
        </span>
      </button>
      {opened && (
        <Suspense fallback={null}>
          <SyncPanel onClose={() => setOpened(false)} />
        </Suspense>
      )}
      {paused && !opened && <SessionExpiredBanner floating />}
    </>
  );
}
