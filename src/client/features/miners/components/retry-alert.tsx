/** A part of a miners screen that could not be loaded: what failed, and Retry (a finger's tap on a phone). */
import type { ReactNode } from 'react';
import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';

export function RetryAlert({ testId, onRetry, children }: { testId: string; onRetry: () => unknown; children: ReactNode }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  return (
    <Alert color="red" data-testid={testId}>
      {children}
      <Button size={phone ? 'sm' : 'xs'} variant="light" ml="sm" onClick={() => void onRetry()}>
        {t('state.retry')}
      </Button>
    </Alert>
  );
}
