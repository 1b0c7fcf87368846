/** 404: a link to a record or page that does not exist. */
import { Button } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/error-screen';

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <ErrorScreen
      code="404"
      title={t('error.404')}
      message={t('error.404Hint')}
      testId="page-404"
      actions={<Button onClick={() => navigate('/', { replace: true })}>{t('error.home')}</Button>}
    />
  );
}
