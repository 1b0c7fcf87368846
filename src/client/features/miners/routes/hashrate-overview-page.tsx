/**
 * /device/hash: the current farm's hashrate now (real vs ideal, online and qualified rates, temperatures,
 * top faults) and its series — per minute over 24 hours, per hour over 30 days, per day over a year.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Card, Center, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAgentKey } from '@client/lib/agent-key';
import { formatDate } from '@shared/format/date';
import { formatHashrate, formatHashrateTicks } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import { FARM_SERIES_RANGES, type FarmSeriesRange } from '@shared/schemas/miner';
import { useFarmSeries, useIndexStat } from '../api/miners-api';
import { AgentOfflineNotice } from '@client/components/agent-offline-notice';
import { PageHeader } from '@client/components/page-header';
import { NoFarmState } from '@client/components/no-farm-state';
import { type ChartAxis, type ChartSeries, UplotChart } from '@client/components/uplot-chart';
import { formatPercent, formatTemp } from '../lib/format-miner';
import { useMinerLabels } from '../lib/use-miner-labels';
import { usePhone } from '@client/lib/use-phone';

function Figure({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Card withBorder padding="sm" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Card>
  );
}

/** A failed load's message with its retry button beside it, or under it where the line is too narrow (a phone). */
function FailedWithRetry({ text, retry, phone, onRetry, testId }: { text: string; retry: string; phone: boolean; onRetry: () => void; testId: string }) {
  return (
    <Group gap="sm" justify="space-between" wrap="wrap">
      <Text size="sm">{text}</Text>
      <Button size={phone ? 'sm' : 'xs'} variant="default" onClick={onRetry} data-testid={testId}>
        {retry}
      </Button>
    </Group>
  );
}

const countAxis = (v: number) => formatNumber(v, 0);
/** The window of each range, in seconds (the server's: per minute over 24 hours, per hour over 30 days, per day over a year). */
const SPAN: Record<FarmSeriesRange, number> = { hour: 86_400, '30d': 30 * 86_400, '1y': 365 * 86_400 };

export function HashrateOverviewPage() {
  const { t } = useTranslation('miners');
  // A finger's target on a phone (the compact control is ~23 px tall).
  const phone = usePhone();
  const { label } = useMinerLabels();
  const agentKey = useAgentKey();
  const [range, setRange] = useState<FarmSeriesRange>('hour');
  const index = useIndexStat(agentKey);
  const series = useFarmSeries(agentKey, range);
  const points = useMemo(() => series.data ?? [], [series.data]);
  const x = useMemo(() => points.map((p) => Date.parse(p.at) / 1000), [points]);
  const rate = useMemo<ChartSeries[]>(
    () => [
      { label: t('charts.real'), color: '#1c7ed6', values: points.map((p) => p.realGhs), fill: true },
      { label: t('charts.ideal'), color: '#868e96', values: points.map((p) => p.idealGhs), dash: true },
    ],
    [points, t],
  );
  const counts = useMemo<ChartSeries[]>(
    () => [
      { label: t('charts.total'), color: '#868e96', values: points.map((p) => p.total), scale: 'n', dash: true },
      { label: t('charts.online'), color: '#2f9e44', values: points.map((p) => p.online), scale: 'n' },
      { label: t('charts.qualified'), color: '#0c8599', values: points.map((p) => p.qualified), scale: 'n' },
    ],
    [points, t],
  );
  const rateAxes = useMemo<ChartAxis[]>(() => [{ scale: 'y', side: 'left', ticks: formatHashrateTicks, size: 80, zero: true }], []);
  const countAxes = useMemo<ChartAxis[]>(() => [{ scale: 'n', side: 'left', format: countAxis, size: 60, zero: true }], []);
  const rateFormat = useMemo(() => ({ y: (v: number) => formatHashrate(v) }), []);
  const countFormat = useMemo(() => ({ n: (v: number) => formatNumber(v, 0) }), []);

  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('overview.title')} />
        <NoFarmState />
      </Stack>
    );
  }

  const s = index.data;
  const refresh = () => void Promise.all([index.refetch(), series.refetch()]);

  let chart: ReactNode;
  if (series.isPending) {
    chart = (
      <Center mih={260} data-testid="farm-series-loading">
        <Loader size="sm" />
      </Center>
    );
  } else if (series.isError && !series.data) {
    chart = (
      <Alert color="red" data-testid="farm-series-error">
        <FailedWithRetry text={t('charts.failed')} retry={t('state.retry')} phone={phone} onRetry={() => void series.refetch()} testId="farm-series-retry" />
      </Alert>
    );
  } else if (points.length === 0) {
    chart = (
      <Center mih={200}>
        <Text size="sm" c="dimmed" data-testid="farm-series-empty">
          {t('charts.empty')}
        </Text>
      </Center>
    );
  } else {
    chart = (
      <Stack gap="md">
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('charts.hashrate')}
          </Text>
          <UplotChart x={x} series={rate} axes={rateAxes} valueFormat={rateFormat} span={SPAN[range]} height={300} testId="farm-chart-hashrate" ariaLabel={t('charts.hashrate')} />
        </div>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('charts.miners')}
          </Text>
          <UplotChart x={x} series={counts} axes={countAxes} valueFormat={countFormat} span={SPAN[range]} height={220} testId="farm-chart-miners" ariaLabel={t('charts.miners')} />
        </div>
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="hashrate-overview-page">
      <PageHeader
        title={t('overview.title')}
        description={s?.updatedAt ? t('overview.updatedAt', { time: formatDate(s.updatedAt) }) : t('overview.description')}
        actions={
          <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconRefresh size={14} />} loading={(index.isFetching && !index.isPending) || (series.isFetching && !series.isPending)} onClick={refresh}>
            {t('list.refresh')}
          </Button>
        }
      />
      <AgentOfflineNotice />
      {index.isError && !s && (
        <Alert color="red" data-testid="index-stat-error">
          <FailedWithRetry text={t('overview.failed')} retry={t('state.retry')} phone={phone} onRetry={() => void index.refetch()} testId="index-stat-retry" />
        </Alert>
      )}
      {index.isPending && (
        <Center mih={80}>
          <Loader size="sm" />
        </Center>
      )}
      {s && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
          <Figure testId="overview-real" label={t('overview.real')} value={formatHashrate(s.realGhs)} />
          <Figure testId="overview-ideal" label={t('overview.ideal')} value={formatHashrate(s.idealGhs)} />
          <Figure
            testId="overview-online-rate"
            label={t('overview.onlineRate')}
            value={
              // A farm without miners has no rate (not "0.0% (0/0)"); nor a qualified rate with none online.
              s.total > 0 ? (
                <>
                  {formatPercent(s.onlineRate)}{' '}
                  <Text span size="sm" fw={500} c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    ({formatNumber(s.online)}/{formatNumber(s.total)})
                  </Text>
                </>
              ) : (
                formatPercent(null)
              )
            }
          />
          <Figure testId="overview-qualified-rate" label={t('overview.qualifiedRate')} value={formatPercent(s.online > 0 ? s.qualifiedRate : null)} />
          <Figure testId="overview-temp-max" label={t('overview.tempMax')} value={formatTemp(s.tempMax)} />
          <Figure testId="overview-temp-avg" label={t('overview.tempAvg')} value={formatTemp(s.tempAvg)} />
        </SimpleGrid>
      )}
      {s && s.topFaults.length > 0 && (
        <Group gap="xs" data-testid="overview-faults">
          <Text size="sm" c="dimmed">
            {t('overview.topFaults')}
          </Text>
          {s.topFaults.map((f) => (
            <Badge key={f.label} variant="light" color="red" tt="none">
              {label('faultType', f.label)}: {formatNumber(f.count)}
            </Badge>
          ))}
        </Group>
      )}
      <Card withBorder radius="md" padding="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Title order={5}>{t('overview.series')}</Title>
          <SegmentedControl
            size={phone ? 'md' : 'xs'}
            value={range}
            onChange={(v) => setRange(v as FarmSeriesRange)}
            data={FARM_SERIES_RANGES.map((r) => ({ value: r, label: t(`overview.range.${r}`) }))}
            data-testid="farm-series-range"
          />
        </Group>
        {chart}
      </Card>
    </Stack>
  );
}
