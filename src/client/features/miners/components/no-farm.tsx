import { Button, EmptyState } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Shown when no farm is selected. */
export function NoFarm() {
  const { t } = useTranslation('miners');
  return (
    <EmptyState icon={<IconBuildingWarehouse size={32} />} title={t('noFarm.title')} description={t('noFarm.help')} withIndicatorBackground data-testid="miners-no-farm">
      <EmptyState.Actions>
        <Button component={Link} to="/agents">
          {t('noFarm.toFarms')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
