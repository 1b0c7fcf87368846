/** "Session expired — log in again": shown while a 401 holds the outbox; nothing waiting is lost. */
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useOutboxPaused } from '@client/lib/offline/outbox';
import { sessionKeys } from '@client/lib/session-api';

export function SessionExpiredBanner({ onLogin }: { onLogin?: () => void }) {
  const { t } = useTranslation('offline');
  const paused = useOutboxPaused();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  if (!paused) return null;
  return (
    <Alert color="orange" icon={<IconLock size={18} />} title={t('session.title')} data-testid="outbox-session-expired">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">{t('session.body')}</Text>
        <Button
          size="compact-md"
          color="orange"
          data-testid="outbox-login"
          onClick={() => {
            onLogin?.();
            // The cached user would send the login page straight back: the session is gone.
            queryClient.removeQueries({ queryKey: sessionKeys.currentUser });
            navigate('/login', { state: { from: `${location.pathname}${location.search}` } });
          }}
        >
          {t('session.login')}
        </Button>
      </Group>
    </Alert>
  );
}
