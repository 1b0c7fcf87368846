/**
 * The sync panel opened from the header indicator (light twin of the console's outbox drawer): session
 * banner, this farm's sync status with "Sync now", this device's storage, the changes waiting to be sent, and
 * the dead letters with the server's reason and Retry / Edit / Discard.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAgentKey } from '@client/lib/agent-key';
import type { OutboxEntry } from '@client/lib/offline/db';
import { isMinerWriteKind } from '@client/lib/offline/miner-writes';
import { discard, replayOutbox, retry, useOutboxPaused, useOutboxView } from '@client/lib/offline/outbox';
import { formatBytes, queueStateText, timeText } from '@client/lib/offline/outbox-text';
import { useStorageEstimate } from '@client/lib/offline/storage';
import { syncNow, useSyncStatus } from '@client/lib/offline/sync';
import { FieldDialog } from '@client/features/field/components/field-dialog';
import { showToast } from '@client/features/field/lib/toasts';
import { DeadLetterEdit } from './dead-letter-edit';
import { SessionExpiredBanner } from './session-expired-banner';

/** Long queues render their first rows only (the counts stay exact). */
const LIST_LIMIT = 100;

function SyncSection({ agentKey }: { agentKey: string | null }) {
  const { t } = useTranslation('offline');
  const status = useSyncStatus(agentKey);
  if (!agentKey) return <p className="hf-small hf-dimmed">{t('sync.noFarm')}</p>;
  return (
    <div className="hf-stack-tight" data-testid="outbox-sync-section">
      <div className="hf-row">
        <span className="hf-small" data-testid="outbox-last-synced">
          {status.syncing ? t('sync.syncing') : status.lastSyncedAt ? t('sync.last', { time: timeText(status.lastSyncedAt) }) : t('sync.never')}
        </span>
        <button
          type="button"
          className="hf-button hf-button-light hf-button-compact"
          disabled={status.syncing}
          aria-busy={status.syncing}
          data-testid="outbox-sync-now"
          onClick={() => {
            void replayOutbox({ force: true });
            syncNow(agentKey).catch(() => undefined);
          }}
        >
          {t('sync.now')}
        </button>
      </div>
      <span className="hf-small hf-dimmed">{t('sync.miners', { count: status.minersCount })}</span>
      {status.error && <span className="hf-small hf-text-red">{t('sync.failed', { message: status.error })}</span>}
    </div>
  );
}

function StorageSection() {
  const { t, i18n } = useTranslation('offline');
  const info = useStorageEstimate();
  if (info.usage === null || info.quota === null || info.quota <= 0) {
    return (
      <p className="hf-small hf-dimmed" data-testid="outbox-storage">
        {t('storage.unavailable')}
      </p>
    );
  }
  const percent = Math.min(100, (info.usage / info.quota) * 100);
  return (
    <div className="hf-stack-tight" data-testid="outbox-storage" data-warn={info.warn}>
      <span className="hf-small">
        {t('storage.usage', {
          used: formatBytes(info.usage, i18n.language),
          quota: formatBytes(info.quota, i18n.language),
          percent: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(percent),
        })}
      </span>
      <progress className={info.warn ? 'hf-progress is-warn' : 'hf-progress'} max={100} value={percent} aria-label={t('storage.title')} />
      {info.persisted !== null && <span className={`hf-small ${info.persisted ? 'hf-dimmed' : 'hf-text-orange'}`}>{info.persisted ? t('storage.persisted') : t('storage.notPersisted')}</span>}
      {info.warn && (
        <div className="hf-alert hf-alert-red" data-testid="outbox-storage-warn">
          {t('storage.warn')}
        </div>
      )}
    </div>
  );
}

function QueueRow({ entry, paused }: { entry: OutboxEntry; paused: boolean }) {
  const { t } = useTranslation('offline');
  const state = queueStateText(entry, paused, t);
  return (
    <div className="hf-paper hf-paper-tight hf-row" data-testid="outbox-pending-row" data-state={entry.state}>
      <div className="hf-grow">
        <div className="hf-small hf-truncate">{entry.label}</div>
        <div className={`hf-xs ${entry.state === 'failed' ? 'hf-text-orange' : 'hf-dimmed'}`}>
          {timeText(entry.created)} · {state}
        </div>
      </div>
      {entry.state === 'failed' && (
        <button type="button" className="hf-button hf-button-light hf-button-compact" onClick={() => void retry(entry.id)}>
          {t('queue.retryNow')}
        </button>
      )}
    </div>
  );
}

function DeadRow({ entry, onEdit, onDiscard }: { entry: OutboxEntry; onEdit: (e: OutboxEntry) => void; onDiscard: (e: OutboxEntry) => void }) {
  const { t } = useTranslation('offline');
  return (
    <div className="hf-paper hf-paper-tight hf-paper-red hf-stack-tight" data-testid="outbox-dead-row">
      <div className="hf-row">
        <span className="hf-small hf-truncate hf-grow">{entry.label}</span>
        <span className="hf-chip hf-chip-red">{entry.lastError?.status ?? ''}</span>
      </div>
      <span className="hf-xs hf-text-red" data-testid="outbox-dead-reason">
        {t('dead.reason', { reason: entry.lastError?.message ?? '' })}
      </span>
      <span className="hf-xs hf-dimmed">{timeText(entry.created)}</span>
      <div className="hf-row hf-row-wrap hf-row-start">
        <button
          type="button"
          className="hf-button hf-button-light hf-button-compact"
          data-testid="dead-letter-retry"
          onClick={() => void retry(entry.id).then(() => showToast({ message: t('dead.retried'), autoClose: 2500 }))}
        >
          {t('dead.retry')}
        </button>
        {isMinerWriteKind(entry.kind) && (
          <button type="button" className="hf-button hf-button-light hf-button-compact" data-testid="dead-letter-edit-open" onClick={() => onEdit(entry)}>
            {t('dead.edit')}
          </button>
        )}
        <button type="button" className="hf-button hf-button-subtle-red hf-button-compact" data-testid="dead-letter-discard" onClick={() => onDiscard(entry)}>
          {t('dead.discard')}
        </button>
      </div>
    </div>
  );
}

function DiscardConfirm({ entry, onClose }: { entry: OutboxEntry; onClose: () => void }) {
  const { t } = useTranslation('offline');
  return (
    <FieldDialog
      title={entry.label}
      onClose={onClose}
      closeLabel={t('drawer.close')}
      testId="dead-letter-discard-dialog"
      footer={
        <>
          <button type="button" className="hf-button hf-button-default" onClick={onClose}>
            {t('noteDialog.cancel')}
          </button>
          <button
            type="button"
            className="hf-button hf-button-red"
            data-testid="dead-letter-discard-confirm"
            onClick={() => {
              onClose();
              void discard(entry.id).then(() => showToast({ message: t('dead.discarded'), autoClose: 2500 }));
            }}
          >
            {t('dead.discard')}
          </button>
        </>
      }
    >
      <p className="hf-small">{t('dead.discardConfirm')}</p>
    </FieldDialog>
  );
}

export function SyncPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('offline');
  const agentKey = useAgentKey();
  const view = useOutboxView();
  const entries = view?.entries;
  const others = view?.others ?? 0;
  const paused = useOutboxPaused();
  const [editing, setEditing] = useState<OutboxEntry | null>(null);
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  const waiting = (entries ?? []).filter((e) => e.state !== 'dead');
  const dead = (entries ?? []).filter((e) => e.state === 'dead');
  return (
    <FieldDialog side title={t('drawer.title')} onClose={onClose} closeLabel={t('drawer.close')} testId="outbox-drawer">
      <div className="hf-stack">
        <SessionExpiredBanner />
        <section className="hf-stack-tight">
          <h3 className="hf-h5">{t('sync.title')}</h3>
          <SyncSection agentKey={agentKey} />
        </section>
        <section className="hf-stack-tight">
          <h3 className="hf-h5">{t('storage.title')}</h3>
          <StorageSection />
        </section>
        <hr className="hf-divider" />
        <section className="hf-stack-tight" data-testid="outbox-pending-list">
          <div className="hf-row">
            <h3 className="hf-h5">{t('queue.title')}</h3>
            <span className="hf-chip hf-chip-blue">{waiting.length}</span>
          </div>
          {entries === undefined ? (
            <p className="hf-small hf-dimmed">{t('queue.loading')}</p>
          ) : waiting.length === 0 ? (
            <p className="hf-small hf-dimmed">{t('queue.empty')}</p>
          ) : (
            waiting.slice(0, LIST_LIMIT).map((e) => <QueueRow key={e.id} entry={e} paused={paused} />)
          )}
          {waiting.length > LIST_LIMIT && <span className="hf-xs hf-dimmed">+{waiting.length - LIST_LIMIT}</span>}
          {others > 0 && (
            <span className="hf-xs hf-dimmed" data-testid="outbox-others-waiting">
              {t('queue.othersWaiting', { count: others })}
            </span>
          )}
        </section>
        <section className="hf-stack-tight" data-testid="outbox-dead-list">
          <div className="hf-row">
            <h3 className={`hf-h5${dead.length ? ' hf-text-red' : ''}`}>{t('dead.title')}</h3>
            <span className={`hf-chip ${dead.length ? 'hf-chip-red-filled' : 'hf-chip-red'}`}>{dead.length}</span>
          </div>
          {entries !== undefined && dead.length === 0 && <p className="hf-small hf-dimmed">{t('dead.empty')}</p>}
          {dead.slice(0, LIST_LIMIT).map((e) => (
            <DeadRow key={e.id} entry={e} onEdit={setEditing} onDiscard={setDiscarding} />
          ))}
          {dead.length > LIST_LIMIT && <span className="hf-xs hf-dimmed">+{dead.length - LIST_LIMIT}</span>}
        </section>
      </div>
      {editing && <DeadLetterEdit entry={editing} onClose={() => setEditing(null)} />}
      {discarding && <DiscardConfirm entry={discarding} onClose={() => setDiscarding(null)} />}
    </FieldDialog>
  );
}
