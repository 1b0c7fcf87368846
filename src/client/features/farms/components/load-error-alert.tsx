import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';

/** A farm page's or card's data that could not be loaded: what failed, the error, and a retry (farms `list.retry`). */
export function LoadErrorAlert({ title, error, onRetry }: { title: string; error: Error; onRetry: () => unknown }) {
  const { t } = useTranslation('farms');
  // A tap target of at least 32 px on a phone (xs is 30 px).
  const phone = usePhone();
  return (
    <Alert color="red" title={title}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error.message}</Text>
        <Button size={phone ? 'sm' : 'xs'} variant="light" color="red" onClick={() => void onRetry()}>
          {t('list.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
