import { useTranslation } from 'react-i18next';
import { NoFarmState } from '@client/components/no-farm-state';

/** The field pages without a selected farm. */
export function FieldNoFarm() {
  const { t } = useTranslation('field');
  return <NoFarmState title={t('noFarm.title')} description={t('noFarm.help')} toFarms={t('noFarm.toFarms')} testId="field-no-farm" />;
}
