/** The most frequent fault labels now, each linking to the miner list filtered by that fault. */
import { Badge, Card, Stack, Text, Title, UnstyledButton } from '@mantine/core';
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
          <Stack gap={2}>
            {/* The whole row is the link: a finger-size target on a phone, not the 20 px line of its name. */}
            {faults.map((f) => (
              <UnstyledButton
                key={f.label}
                component={Link}
                to={`/device/miner?faultType=${f.label}`}
                data-testid="dashboard-fault-link"
                style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 'var(--mantine-spacing-xs)', minHeight: 32 }}
              >
                <Text size="sm" c="blue">
                  {label('faultType', f.label)}
                </Text>
                <Badge color="red" variant="light" style={{ flexShrink: 0 }}>
                  {formatNumber(f.count)}
                </Badge>
              </UnstyledButton>
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
