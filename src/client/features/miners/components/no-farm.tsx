import { useTranslation } from 'react-i18next';
import { NoFarmState } from '@client/components/no-farm-state';

/** Shown when no farm is selected. */
export function NoFarm() {
  const { t } = useTranslation('miners');
  return <NoFarmState title={t('noFarm.title')} description={t('noFarm.help')} toFarms={t('noFarm.toFarms')} testId="miners-no-farm" />;
}
