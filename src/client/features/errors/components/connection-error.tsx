/** Shown when the server cannot be reached and nothing is cached on this device to open the console with. */
import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorScreen } from './error-screen';

export interface ConnectionErrorProps {
  onRetry: () => void;
  fullHeight?: boolean;
}

export function ConnectionError({ onRetry, fullHeight = true }: ConnectionErrorProps) {
  const { t } = useTranslation('common');
  return (
    <ErrorScreen
      title={t('error.offlineTitle')}
      message={t('error.offlineHint')}
      fullHeight={fullHeight}
      testId="connection-error"
      actions={<Button onClick={onRetry}>{t('error.retry')}</Button>}
    />
  );
}
