/** Farm hashrate, real vs ideal, over the last hour (per minute), 30 days (per hour) or a year (per day). */
import { useMemo, useState } from 'react';
import { Card, Group, SegmentedControl, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatHashrate, formatHashrateTicks } from '@shared/format/hashrate';
import { DASHBOARD_SERIES_RANGES, type DashboardSeriesRange } from '@shared/schemas/miner-records';
import { type ChartAxis, type ChartSeries, UplotChart } from '@client/components/uplot-chart';
import { useDashboardSeries } from '../api/dashboard-api';
import { PanelState } from './panel-state';
import { usePhone } from '@client/lib/use-phone';

const AXES: ChartAxis[] = [{ scale: 'y', side: 'left', ticks: (v: number[]) => formatHashrateTicks(v), size: 72, zero: true }];
const VALUE_FORMAT = { y: (v: number) => formatHashrate(v) };
/** The window of each range, in seconds (the server's: per minute over the last hour, per hour over 30 days, per day over a year). */
const SPAN: Record<DashboardSeriesRange, number> = { hour: 3600, '30d': 30 * 86_400, '1y': 365 * 86_400 };

export function HashrateCard({ agentKey, noMiners }: { agentKey: string; noMiners: boolean }) {
  const { t } = useTranslation('dashboard');
  // A finger's target on a phone (the compact control is ~23 px tall).
  const phone = usePhone();
  const [range, setRange] = useState<DashboardSeriesRange>('hour');
  const series = useDashboardSeries(agentKey, range);
  const points = useMemo(() => series.data ?? [], [series.data]);
  const x = useMemo(() => points.map((p) => Date.parse(p.at) / 1000), [points]);
  const lines = useMemo<ChartSeries[]>(
    () => [
      { label: t('chart.real'), color: '#1c7ed6', values: points.map((p) => p.realGhs), fill: true },
      { label: t('chart.ideal'), color: '#868e96', values: points.map((p) => p.idealGhs), dash: true },
    ],
    [points, t],
  );

  return (
    <Card withBorder padding="md" data-testid="dashboard-hashrate">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={4}>{t('chart.title')}</Title>
        <SegmentedControl
          size={phone ? 'md' : 'xs'}
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
          <UplotChart x={x} series={lines} axes={AXES} valueFormat={VALUE_FORMAT} span={SPAN[range]} height={260} testId="dashboard-chart" ariaLabel={t('chart.title')} />
        )}
      </PanelState>
    </Card>
  );
}
