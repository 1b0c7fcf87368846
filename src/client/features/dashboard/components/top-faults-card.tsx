/** The most frequent fault labels now, each linking to the miner list filtered by that fault. */
import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { PanelState } from './panel-state';
import { useLabels } from './use-labels';

export function TopFaultsCard({ counters, pending, error, onRetry }: { counters: DashboardCounters | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  const label = useLabels();
  const faults = (counters?.topFaults ?? []).slice(0, 5);
  return (
    <Card withBorder padding="md" data-testid="dashboard-faults">
      <Title order={4} mb="sm">
        {t('faults.title')}
      </Title>
      <PanelState testId="dashboard-faults" pending={pending} error={error} empty={faults.length === 0} emptyText={t('faults.empty')} onRetry={onRetry}>
        {() => (
          <Stack gap={6}>
            {faults.map((f) => (
              <Group key={f.label} justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/device/miner?faultType=${f.label}`} size="sm" data-testid="dashboard-fault-link">
                  {label('faultType', f.label)}
                </Anchor>
                <Badge color="red" variant="light">
                  {formatNumber(f.count)}
                </Badge>
              </Group>
            ))}
            <Text size="xs" c="dimmed">
              {t('faults.hint')}
            </Text>
          </Stack>
        )}
      </PanelState>
    </Card>
  );
}
