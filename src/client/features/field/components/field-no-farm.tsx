import { Button, EmptyState } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The field pages without a selected farm. */
export function FieldNoFarm() {
  const { t } = useTranslation('field');
  return (
    <EmptyState icon={<IconBuildingWarehouse size={32} />} title={t('noFarm.title')} description={t('noFarm.help')} withIndicatorBackground data-testid="field-no-farm">
      <EmptyState.Actions>
        <Button component={Link} to="/agents">
          {t('noFarm.toFarms')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
