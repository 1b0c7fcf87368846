/** The most frequent fault labels now, each linking to the miner list filtered by that fault. */
import { Card, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { CountLinks } from './count-links';
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
          <CountLinks
            rows={faults.map((f) => ({ key: f.label, text: label('faultType', f.label), count: f.count, to: `/device/miner?faultType=${f.label}` }))}
            rowTestId="dashboard-fault-link"
            hint={t('faults.hint')}
          />
        )}
      </PanelState>
    </Card>
  );
}
