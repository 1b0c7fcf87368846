import { Button, EmptyState } from '@mantine/core';
import { IconBuildingWarehouse } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** A page that needs a farm when none is selected: what is missing and a way to the farm list. */
export function NoFarmState({ title, description, toFarms, testId }: { title: string; description: string; toFarms: string; testId: string }) {
  return (
    <EmptyState icon={<IconBuildingWarehouse size={32} />} title={title} description={description} withIndicatorBackground data-testid={testId}>
      <EmptyState.Actions>
        <Button component={Link} to="/agents">
          {toFarms}
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  );
}
