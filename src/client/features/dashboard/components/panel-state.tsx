/** Loading, error (with retry) and empty states of one dashboard panel, so every panel behaves alike. */
import type { ReactNode } from 'react';
import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';

export interface PanelStateProps {
  testId: string;
  pending: boolean;
  error: boolean;
  empty: boolean;
  emptyText: ReactNode;
  onRetry: () => void;
  minHeight?: number;
  children: () => ReactNode;
}

export function PanelState({ testId, pending, error, empty, emptyText, onRetry, minHeight = 120, children }: PanelStateProps) {
  const { t } = useTranslation('dashboard');
  const phone = usePhone();
  if (pending) {
    return (
      <Center mih={minHeight} data-testid={`${testId}-loading`}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (error) {
    return (
      <Alert color="red" data-testid={`${testId}-error`}>
        {t('panel.failed')}
        <Button size={phone ? 'sm' : 'xs'} variant="light" ml="sm" onClick={onRetry}>
          {t('panel.retry')}
        </Button>
      </Alert>
    );
  }
  if (empty) {
    return (
      <Center mih={minHeight}>
        <Text size="sm" c="dimmed" ta="center" data-testid={`${testId}-empty`}>
          {emptyText}
        </Text>
      </Center>
    );
  }
  return <>{children()}</>;
}
