/** /500 (spec 1 §2.1, §8): "Sorry, something went wrong", rendered without the main layout. */
import { Button } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/error-screen';

export function ServerErrorPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return (
    <ErrorScreen
      code="500"
      title={t('error.500')}
      message={t('error.500Hint')}
      fullHeight
      testId="page-500"
      actions={
        <>
          {from && from !== '/500' && (
            <Button variant="default" onClick={() => navigate(from, { replace: true })}>
              {t('error.retry')}
            </Button>
          )}
          <Button onClick={() => navigate('/', { replace: true })}>{t('error.home')}</Button>
        </>
      }
    />
  );
}
