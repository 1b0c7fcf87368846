/**
 * "Update available — reload" (never a forced reload): a Mantine notification with a button. While the outbox
 * has writes to send or a form is dirty the reload waits (sw-update.ts) and says so.
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { i18next } from '@client/lib/i18n';
import { registerServiceWorker } from '@client/lib/sw-update';

const UPDATE_ID = 'sw-update';

function showUpdatePrompt(apply: () => void): void {
  const t = i18next.getFixedT(null, 'shell');
  notifications.show({
    id: UPDATE_ID,
    title: t('update.title'),
    autoClose: false,
    withCloseButton: true,
    message: (
      <Group justify="space-between" gap="xs" mt={4} wrap="nowrap">
        <Text size="sm">{t('update.message')}</Text>
        <Button
          size="compact-sm"
          data-testid="sw-update-reload"
          onClick={() => {
            notifications.hide(UPDATE_ID);
            apply();
          }}
        >
          {t('update.reload')}
        </Button>
      </Group>
    ),
  });
}

/** The user agreed, but writes wait in the outbox or a form is dirty: the reload happens once they clear. */
function showUpdateHeld(): void {
  void i18next.loadNamespaces('offline').then(() => {
    const t = i18next.getFixedT(null, 'offline');
    notifications.show({ id: UPDATE_ID, title: t('update.heldTitle'), message: <span data-testid="sw-update-held">{t('update.held')}</span>, autoClose: 8000 });
  });
}

export function startServiceWorker(): void {
  registerServiceWorker({
    onNeedRefresh: showUpdatePrompt,
    onHeld: showUpdateHeld,
    onOfflineReady: () => {
      const t = i18next.getFixedT(null, 'shell');
      notifications.show({ message: t('update.offlineReady'), autoClose: 4000 });
    },
  });
}
