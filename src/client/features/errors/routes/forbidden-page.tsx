/** 403: the user lacks the page's permission key on the selected farm (spec 1 §6). */
import { Button } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ErrorScreen } from '../components/error-screen';

export function ForbiddenPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <ErrorScreen
      code="403"
      title={t('error.403')}
      message={t('error.403Hint')}
      testId="page-403"
      actions={<Button variant="default" onClick={() => navigate(-1)}>{t('error.back')}</Button>}
    />
  );
}
