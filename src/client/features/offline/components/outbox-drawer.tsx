/**
 * The sync panel opened from the header indicator: session-expired banner, this farm's sync status with
 * "Sync now", this device's storage (usage of quota, persisted, warning above 80 %), the changes waiting to be
 * sent, and the dead letters with the server's reason and Retry / Edit / Discard.
 */
import { Alert, Badge, Button, Card, Divider, Drawer, Group, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAgentKey } from '@client/lib/agent-key';
import { usePhone } from '@client/lib/use-phone';
import type { OutboxEntry } from '@client/lib/offline/db';
import { isMinerWriteKind } from '@client/lib/offline/miner-writes';
import { discard, replayOutbox, retry, useOutboxPaused, useOutboxView } from '@client/lib/offline/outbox';
import { formatBytes, queueStateText, timeText } from '@client/lib/offline/outbox-text';
import { useStorageEstimate } from '@client/lib/offline/storage';
import { syncNow, useSyncStatus } from '@client/lib/offline/sync';
import { DeadLetterEditDialog } from './dead-letter-edit-dialog';
import { SessionExpiredBanner } from './session-expired-banner';

/** Long queues render their first rows only (the counts stay exact). */
const LIST_LIMIT = 100;

function SyncSection({ agentKey }: { agentKey: string | null }) {
  const { t } = useTranslation('offline');
  const status = useSyncStatus(agentKey);
  if (!agentKey) return <Text size="sm" c="dimmed">{t('sync.noFarm')}</Text>;
  return (
    <Stack gap={4} data-testid="outbox-sync-section">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" data-testid="outbox-last-synced">
          {status.syncing ? t('sync.syncing') : status.lastSyncedAt ? t('sync.last', { time: timeText(status.lastSyncedAt) }) : t('sync.never')}
        </Text>
        <Button
          size="compact-md"
          variant="light"
          leftSection={<IconRefresh size={16} />}
          loading={status.syncing}
          data-testid="outbox-sync-now"
          onClick={() => {
            void replayOutbox({ force: true });
            syncNow(agentKey).catch(() => undefined);
          }}
        >
          {t('sync.now')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('sync.miners', { count: status.minersCount })}
      </Text>
      {status.error && (
        <Text size="xs" c="red">
          {t('sync.failed', { message: status.error })}
        </Text>
      )}
    </Stack>
  );
}

function StorageSection() {
  const { t, i18n } = useTranslation('offline');
  const info = useStorageEstimate();
  if (info.usage === null || info.quota === null || info.quota <= 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="outbox-storage">
        {t('storage.unavailable')}
      </Text>
    );
  }
  const percent = Math.min(100, (info.usage / info.quota) * 100);
  return (
    <Stack gap={4} data-testid="outbox-storage" data-warn={info.warn}>
      <Text size="sm">
        {t('storage.usage', {
          used: formatBytes(info.usage, i18n.language),
          quota: formatBytes(info.quota, i18n.language),
          percent: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(percent),
        })}
      </Text>
      <Progress value={percent} color={info.warn ? 'red' : 'blue'} size="sm" aria-label={t('storage.title')} />
      {info.persisted !== null && (
        <Text size="xs" c={info.persisted ? 'dimmed' : 'orange'}>
          {info.persisted ? t('storage.persisted') : t('storage.notPersisted')}
        </Text>
      )}
      {info.warn && (
        <Alert color="red" p="xs" data-testid="outbox-storage-warn">
          {t('storage.warn')}
        </Alert>
      )}
    </Stack>
  );
}

function QueueRow({ entry, paused }: { entry: OutboxEntry; paused: boolean }) {
  const { t } = useTranslation('offline');
  const state = queueStateText(entry, paused, t);
  return (
    <Card withBorder padding="xs" data-testid="outbox-pending-row" data-state={entry.state}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" truncate>
            {entry.label}
          </Text>
          <Text size="xs" c={entry.state === 'failed' ? 'orange' : 'dimmed'}>
            {timeText(entry.created)} · {state}
          </Text>
        </Stack>
        {entry.state === 'failed' && (
          <Button size="compact-sm" variant="light" onClick={() => void retry(entry.id)}>
            {t('queue.retryNow')}
          </Button>
        )}
      </Group>
    </Card>
  );
}

function DeadRow({ entry, onEdit }: { entry: OutboxEntry; onEdit: (e: OutboxEntry) => void }) {
  const { t } = useTranslation('offline');
  const askDiscard = () =>
    modals.openConfirmModal({
      title: entry.label,
      children: <Text size="sm">{t('dead.discardConfirm')}</Text>,
      labels: { confirm: t('dead.discard'), cancel: t('noteDialog.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'dead-letter-discard-confirm' } as Record<string, unknown>,
      onConfirm: () => {
        void discard(entry.id).then(() => notifications.show({ message: t('dead.discarded'), autoClose: 2500 }));
      },
    });
  return (
    <Card withBorder padding="xs" data-testid="outbox-dead-row" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" truncate>
            {entry.label}
          </Text>
          <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
            {entry.lastError?.status ?? ''}
          </Badge>
        </Group>
        <Text size="xs" c="red" data-testid="outbox-dead-reason">
          {t('dead.reason', { reason: entry.lastError?.message ?? '' })}
        </Text>
        <Text size="xs" c="dimmed">
          {timeText(entry.created)}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button size="compact-md" variant="light" data-testid="dead-letter-retry" onClick={() => void retry(entry.id).then(() => notifications.show({ message: t('dead.retried'), autoClose: 2500 }))}>
            {t('dead.retry')}
          </Button>
          {isMinerWriteKind(entry.kind) && (
            <Button size="compact-md" variant="light" data-testid="dead-letter-edit-open" onClick={() => onEdit(entry)}>
              {t('dead.edit')}
            </Button>
          )}
          <Button size="compact-md" variant="subtle" color="red" data-testid="dead-letter-discard" onClick={askDiscard}>
            {t('dead.discard')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function OutboxDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('offline');
  const agentKey = useAgentKey();
  const view = useOutboxView();
  const entries = view?.entries;
  const others = view?.others ?? 0;
  const paused = useOutboxPaused();
  const [editing, setEditing] = useState<OutboxEntry | null>(null);
  const phone = usePhone();
  const waiting = (entries ?? []).filter((e) => e.state !== 'dead');
  const dead = (entries ?? []).filter((e) => e.state === 'dead');
  return (
    <>
      <Drawer opened={opened} onClose={onClose} position="right" size={phone ? '100%' : 'md'} title={t('drawer.title')}
        styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }} closeButtonProps={{ 'aria-label': t('drawer.close') }} scrollAreaComponent={ScrollArea.Autosize} data-testid="outbox-drawer">
        <Stack gap="md">
          <SessionExpiredBanner onLogin={onClose} />
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('sync.title')}
            </Text>
            <SyncSection agentKey={agentKey} />
          </Stack>
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('storage.title')}
            </Text>
            <StorageSection />
          </Stack>
          <Divider />
          <Stack gap="xs" data-testid="outbox-pending-list">
            <Group justify="space-between">
              <Text fw={600} size="sm">
                {t('queue.title')}
              </Text>
              <Badge variant="light">{waiting.length}</Badge>
            </Group>
            {entries === undefined ? (
              <Text size="sm" c="dimmed">
                {t('queue.loading')}
              </Text>
            ) : waiting.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('queue.empty')}
              </Text>
            ) : (
              waiting.slice(0, LIST_LIMIT).map((e) => <QueueRow key={e.id} entry={e} paused={paused} />)
            )}
            {waiting.length > LIST_LIMIT && <Text size="xs" c="dimmed">+{waiting.length - LIST_LIMIT}</Text>}
            {others > 0 && (
              <Text size="xs" c="dimmed" data-testid="outbox-others-waiting">
                {t('queue.othersWaiting', { count: others })}
              </Text>
            )}
          </Stack>
          <Stack gap="xs" data-testid="outbox-dead-list">
            <Group justify="space-between">
              <Text fw={600} size="sm" c={dead.length ? 'red' : undefined}>
                {t('dead.title')}
              </Text>
              <Badge color="red" variant={dead.length ? 'filled' : 'light'}>
                {dead.length}
              </Badge>
            </Group>
            {entries !== undefined && dead.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('dead.empty')}
              </Text>
            )}
            {dead.slice(0, LIST_LIMIT).map((e) => (
              <DeadRow key={e.id} entry={e} onEdit={setEditing} />
            ))}
            {dead.length > LIST_LIMIT && <Text size="xs" c="dimmed">+{dead.length - LIST_LIMIT}</Text>}
          </Stack>
        </Stack>
      </Drawer>
      <DeadLetterEditDialog entry={editing} onClose={() => setEditing(null)} />
    </>
  );
}
