import { Button, Group, Text } from '@mantine/core';
import { IconCloudOff, IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { syncNow, useSyncStatus } from '@client/lib/offline/sync';
import { relativeAge } from '../lib/relative-age';

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/** Re-renders every 30 s so "2 min ago" stays true. */
function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

/** "Last synced 2 min ago · 20,000 miners", offline state, last error, "Sync now" (lib/offline/sync). */
export function SyncStatusLine({ agentKey }: { agentKey: string }) {
  const { t, i18n } = useTranslation('field');
  const status = useSyncStatus(agentKey);
  const online = useOnline();
  const now = useNow();
  const syncing = status.syncing;
  const when = status.lastSyncedAt ? t('sync.last', { age: relativeAge(status.lastSyncedAt, i18n.language, now) }) : t('sync.never');
  return (
    <Group gap="xs" justify="space-between" wrap="wrap" data-testid="field-sync-status" data-count={status.minersCount}>
      <Text size="sm" c="dimmed">
        {syncing ? t('sync.syncing') : when} · {t('sync.miners', { count: status.minersCount })}
        {!online && (
          <Text span size="sm" c="orange" ml={6} data-testid="field-offline">
            <IconCloudOff size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
            {t('sync.offline')}
          </Text>
        )}
        {status.error && online && (
          <Text span size="sm" c="red" display="block" data-testid="field-sync-error">
            {t('sync.failed', { message: status.error })}
          </Text>
        )}
      </Text>
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconRefresh size={14} />}
        onClick={() => void syncNow(agentKey).catch(() => undefined)}
        loading={syncing}
        disabled={!online}
        data-testid="field-sync-now"
      >
        {t('sync.now')}
      </Button>
    </Group>
  );
}
