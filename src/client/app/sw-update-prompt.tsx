/** "Update available — reload" (never a forced reload): a Mantine notification with a button. */
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

export function startServiceWorker(): void {
  registerServiceWorker({
    onNeedRefresh: showUpdatePrompt,
    onOfflineReady: () => {
      const t = i18next.getFixedT(null, 'shell');
      notifications.show({ message: t('update.offlineReady'), autoClose: 4000 });
    },
  });
}
