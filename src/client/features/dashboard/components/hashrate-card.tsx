/** Farm hashrate, real vs ideal, over the last hour (per minute), 30 days (per hour) or a year (per day). */
import { useMemo, useState } from 'react';
import { Card, Group, SegmentedControl, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatHashrate } from '@shared/format/hashrate';
import { DASHBOARD_SERIES_RANGES, type DashboardSeriesRange } from '@shared/schemas/miner-records';
import { useDashboardSeries } from '../api/dashboard-api';
import { FarmHashrateChart } from './farm-hashrate-chart';
import { PanelState } from './panel-state';

const axisFormat = (v: number) => formatHashrate(v, 'GH/s', 1);
const valueFormat = (v: number) => formatHashrate(v);

export function HashrateCard({ agentKey, noMiners }: { agentKey: string; noMiners: boolean }) {
  const { t } = useTranslation('dashboard');
  const [range, setRange] = useState<DashboardSeriesRange>('hour');
  const series = useDashboardSeries(agentKey, range);
  const points = useMemo(() => series.data ?? [], [series.data]);
  const x = useMemo(() => points.map((p) => Date.parse(p.at) / 1000), [points]);
  const real = useMemo(() => points.map((p) => p.realGhs), [points]);
  const ideal = useMemo(() => points.map((p) => p.idealGhs), [points]);
  const labels = useMemo(() => ({ real: t('chart.real'), ideal: t('chart.ideal') }), [t]);

  return (
    <Card withBorder padding="md" data-testid="dashboard-hashrate">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4}>{t('chart.title')}</Title>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(v) => setRange(v as DashboardSeriesRange)}
          data={DASHBOARD_SERIES_RANGES.map((r) => ({ value: r, label: t(`chart.range.${r}`) }))}
          data-testid="dashboard-range"
        />
      </Group>
      <PanelState
        testId="dashboard-hashrate"
        pending={series.isPending}
        error={series.isError && !series.data}
        empty={points.length === 0}
        emptyText={noMiners ? t('noMiners.short') : t('chart.empty')}
        onRetry={() => void series.refetch()}
        minHeight={240}
      >
        {() => (
          <FarmHashrateChart x={x} real={real} ideal={ideal} labels={labels} format={valueFormat} axisFormat={axisFormat} height={260} ariaLabel={t('chart.title')} />
        )}
      </PanelState>
    </Card>
  );
}
