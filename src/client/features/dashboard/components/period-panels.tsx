/** Today, 3 days and 1 week: average real vs ideal hashrate, efficiency, online and qualified rates, temperatures. */
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatHashrate } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import type { DashboardPeriodPanel, DashboardSummary } from '@shared/schemas/miner-records';
import { PanelState } from './panel-state';

const pct = (v: number | null) => (v === null ? '-' : `${formatNumber(v, 1)}%`);
const temp = (v: number | null) => (v === null ? '-' : `${formatNumber(v, 1)} °C`);

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} data-testid={testId} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
    </Group>
  );
}

function Panel({ p }: { p: DashboardPeriodPanel }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card withBorder padding="md" data-testid={`dashboard-period-${p.period}`}>
      <Title order={5} mb="xs">
        {t(`period.${p.period}`)}
      </Title>
      {p.samples === 0 ? (
        <Text size="sm" c="dimmed" data-testid={`dashboard-period-${p.period}-empty`}>
          {t('period.empty')}
        </Text>
      ) : (
        <Stack gap={4}>
          <Line label={t('period.real')} value={formatHashrate(p.realGhs)} testId={`dashboard-period-${p.period}-real`} />
          <Line label={t('period.ideal')} value={formatHashrate(p.idealGhs)} />
          <Line label={t('period.efficiency')} value={pct(p.efficiency)} />
          <Line label={t('period.onlineRate')} value={pct(p.onlineRate)} testId={`dashboard-period-${p.period}-online`} />
          <Line label={t('period.qualifiedRate')} value={pct(p.qualifiedRate)} />
          <Line label={t('period.tempMax')} value={temp(p.tempMax)} />
        </Stack>
      )}
    </Card>
  );
}

export function PeriodPanels({ summary, pending, error, onRetry }: { summary: DashboardSummary | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  return (
    <PanelState testId="dashboard-periods" pending={pending} error={error} empty={false} emptyText="" onRetry={onRetry} minHeight={100}>
      {() => (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" aria-label={t('period.title')}>
          {(summary?.panels ?? []).map((p) => (
            <Panel key={p.period} p={p} />
          ))}
        </SimpleGrid>
      )}
    </PanelState>
  );
}
