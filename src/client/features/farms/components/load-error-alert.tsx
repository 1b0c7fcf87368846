import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A farm page's or card's data that could not be loaded: what failed, the error, and a retry (farms `list.retry`). */
export function LoadErrorAlert({ title, error, onRetry }: { title: string; error: Error; onRetry: () => unknown }) {
  const { t } = useTranslation('farms');
  return (
    <Alert color="red" title={title}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        <Button size="xs" variant="light" color="red" onClick={() => void onRetry()}>
          {t('list.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
