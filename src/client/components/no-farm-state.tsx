import { Button, EmptyState } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * A page that needs a farm when none is selected: what is missing, what to do, and a way to the farm list. One text
 * (common:noFarm) for every such page of the console; `help` replaces the line on a page without the header.
 */
export function NoFarmState({ help }: { help?: string }) {
  const { t } = useTranslation('common');
  return (
    <EmptyState icon={<IconBuildingWarehouse size={32} />} title={t('noFarm.title')} description={help ?? t('noFarm.help')} withIndicatorBackground data-testid="no-farm">
      <EmptyState.Actions>
        <Button component={Link} to="/agents">
          {t('noFarm.toFarms')}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
