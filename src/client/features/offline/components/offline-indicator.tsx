/**
 * Header indicator on every screen: online / offline / server unreachable (lib/offline/connectivity.ts), the
 * number of changes waiting (badge) and of changes the server refused (red). Opens the sync panel. A 401 that
 * pauses the outbox turns it orange.
 */
import { ActionIcon, Affix, Badge, Group, Indicator, Text, Tooltip } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconCloudUpload, IconCloudX, IconLock } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyWithRetry } from '@client/lib/import-retry';
import { useOutboxStatus } from '@client/lib/offline/outbox-status';
import { SessionExpiredBanner } from './session-expired-banner';

// The drawer (lists, dead-letter editing, storage) loads when first opened: not part of the first load.
const OutboxDrawer = lazyWithRetry(() => import('./outbox-drawer'), (m) => m.OutboxDrawer);

export function OfflineIndicator() {
  const { t } = useTranslation('offline');
  const { online, reason, unreachable, counts, waiting, paused, label, hint } = useOutboxStatus();
  const [opened, setOpened] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const Icon = paused ? IconLock : unreachable ? IconCloudX : !online ? IconCloudOff : waiting > 0 ? IconCloudUpload : IconCloudCheck;
  return (
    <>
      <Tooltip
        label={
          hint ? (
            <>
              <Text size="sm">{label}</Text>
              <Text size="xs">{hint}</Text>
            </>
          ) : (
            label
          )
        }
        multiline={hint !== null}
        w={hint ? 280 : undefined}
      >
        <Indicator disabled={counts.dead === 0} color="red" size={16} label={counts.dead} offset={4} data-testid="outbox-dead-count" data-count={counts.dead}>
          <ActionIcon
            variant={paused ? 'filled' : unreachable ? 'light' : online ? 'subtle' : 'filled'}
            color={paused || unreachable ? 'orange' : online ? 'gray' : 'dark'}
            size="lg"
            aria-label={`${t('indicator.open')}: ${label}${hint ? `. ${hint}` : ''}`}
            onClick={() => {
              setEverOpened(true);
              setOpened(true);
            }}
            data-testid="outbox-indicator"
            data-online={online}
            data-reason={reason}
            data-pending={waiting}
            data-dead={counts.dead}
            data-paused={paused}
            style={{ width: waiting > 0 ? 'auto' : undefined, paddingInline: waiting > 0 ? 6 : undefined }}
          >
            <Group gap={4} wrap="nowrap">
              <Icon size={18} />
              {waiting > 0 && (
                <Badge size="sm" circle={waiting < 10} color="blue" data-testid="outbox-pending-count">
                  {waiting}
                </Badge>
              )}
            </Group>
          </ActionIcon>
        </Indicator>
      </Tooltip>
      {everOpened && (
        <Suspense fallback={null}>
          <OutboxDrawer opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
      {paused && !opened && (
        // On every screen while the queue waits for a login (a portal: router context is kept).
        <Affix position={{ bottom: 12, left: 12, right: 12 }} zIndex={250}>
          <SessionExpiredBanner />
        </Affix>
      )}
    </>
  );
}
