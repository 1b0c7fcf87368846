/** Miner counters now: online, offline, qualified, each state, offline over 24 h and each fault kind — each a link to the filtered miner list. */
import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import { MINER_FAULT_LABELS } from '@shared/miner-labels';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { PanelState } from './panel-state';
import { useLabels } from './use-labels';

const STATES = ['online', 'offline', 'qualified', 'unqualified', 'zeroHashrate', 'cannotStart', 'illegalPool', 'sleeping', 'lowPower'] as const;
const COLOR: Partial<Record<string, string>> = { online: 'green', offline: 'red', qualified: 'teal' };

function Counter({ label, value, to, color, testId }: { label: ReactNode; value: number; to?: string; color?: string; testId: string }) {
  const inner = (
    <Card withBorder padding="xs" radius="md" h="100%">
      <Text size="xs" c="dimmed" lineClamp={2}>
        {label}
      </Text>
      <Text fw={700} size="lg" c={color} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Card>
  );
  return to ? (
    <UnstyledButton component={Link} to={to} style={{ display: 'block' }}>
      {inner}
    </UnstyledButton>
  ) : (
    inner
  );
}

export function CountersCard({ stat, pending, error, onRetry }: { stat: DashboardCounters | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  const label = useLabels();
  return (
    <Card withBorder padding="md" data-testid="dashboard-counters">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{t('counters.title')}</Title>
        {stat && (
          <Text size="sm" c="dimmed">
            {t('counters.total', { count: stat.total, n: formatNumber(stat.total) })}
          </Text>
        )}
      </Group>
      <PanelState testId="dashboard-counters" pending={pending} error={error} empty={false} emptyText="" onRetry={onRetry}>
        {() =>
          stat && (
            <>
              <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="xs">
                {STATES.map((s) => (
                  <Counter key={s} label={label('status', s)} value={stat[s]} color={COLOR[s]} to={`/device/miner?status=${s}`} testId={`dashboard-count-${s}`} />
                ))}
                <Counter label={t('counters.offline24h')} value={stat.offline24h} to="/device/miner?status=offline24h" testId="dashboard-count-offline24h" />
              </SimpleGrid>
              <Text size="sm" fw={500} mt="md" mb="xs">
                {t('counters.faults')}
              </Text>
              <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="xs">
                {MINER_FAULT_LABELS.map((f) => (
                  <Counter key={f} label={label('faultType', f)} value={stat.faults[f]} color={stat.faults[f] > 0 ? 'red' : undefined} to={`/device/miner?faultType=${f}`} testId={`dashboard-fault-${f}`} />
                ))}
              </SimpleGrid>
            </>
          )
        }
      </PanelState>
    </Card>
  );
}
