import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { probeNow, useConnectivity } from '@client/lib/offline/connectivity';
import { syncNow, useSyncStatus } from '@client/lib/offline/sync';
import { relativeAge } from '../lib/relative-age';

/** Re-renders every 30 s so "2 min ago" stays true. */
function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

/**
 * "Last synced 2 min ago · 20,000 miners", offline or server-unreachable state (lib/offline/connectivity), last
 * error, "Sync now" (lib/offline/sync). While the server is unreachable "Sync now" asks it at once instead of
 * waiting for the next probe of the backoff; its answer starts the sync (and sends the outbox) by itself.
 */
export function SyncStatusLine({ agentKey }: { agentKey: string }) {
  const { t, i18n } = useTranslation('field');
  const status = useSyncStatus(agentKey);
  const { online, reason } = useConnectivity();
  const now = useNow();
  const [checking, setChecking] = useState(false);
  const syncing = status.syncing || checking;
  const onSync = () => {
    if (reason !== 'server-unreachable') {
      void syncNow(agentKey).catch(() => undefined);
      return;
    }
    setChecking(true);
    void probeNow().finally(() => setChecking(false));
  };
  const when = status.lastSyncedAt ? t('sync.last', { age: relativeAge(status.lastSyncedAt, i18n.language, now) }) : t('sync.never');
  return (
    <div className="hf-row hf-row-wrap" data-testid="field-sync-status" data-count={status.minersCount}>
      <p className="hf-small hf-dimmed hf-grow" role="status">
        {status.syncing ? t('sync.syncing') : when} · {t('sync.miners', { count: status.minersCount })}
        {reason === 'offline' && (
          <span className="hf-text-orange hf-ml" data-testid="field-offline">
            {t('sync.offline')}
          </span>
        )}
        {reason === 'server-unreachable' && (
          <span className="hf-text-orange hf-ml" data-testid="field-server-unreachable">
            {t('sync.unreachable')}
          </span>
        )}
        {status.error && online && (
          <span className="hf-text-red hf-block" data-testid="field-sync-error">
            {t('sync.failed', { message: status.error })}
          </span>
        )}
      </p>
      <button
        type="button"
        className="hf-button hf-button-subtle hf-button-compact"
        onClick={onSync}
        disabled={reason === 'offline' || syncing}
        aria-busy={syncing}
        data-testid="field-sync-now"
      >
        <span aria-hidden className={syncing ? 'hf-spin' : undefined}>
          ⟳
        </span>{' '}
        {t('sync.now')}
      </button>
    </div>
  );
}
