/** Temperatures of the online miners now: highest, average and how many fall in each 10 °C band. */
import { Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import type { DashboardSummary, TempBucket } from '@shared/schemas/miner-records';
import { PanelState } from './panel-state';

const temp = (v: number | null) => (v === null ? '-' : `${formatNumber(v, 1)} °C`);

/** The probe wall's colours (probe-tile.tsx): safe below 80 °C, 80–90 warm to hot, 90 °C and above critical. */
function bandColor(b: TempBucket): string {
  if (b.to !== null && b.to <= 80) return 'teal';
  if (b.to !== null && b.to <= 90) return 'orange';
  return 'red';
}

export function TemperatureCard({ summary, pending, error, onRetry }: { summary: DashboardSummary | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  const temps = summary?.temperature;
  return (
    <Card withBorder padding="md" data-testid="dashboard-temperature">
      <Title order={4} mb="sm">
        {t('temperature.title')}
      </Title>
      <PanelState
        testId="dashboard-temperature"
        pending={pending}
        error={error}
        empty={!temps || temps.online === 0}
        emptyText={t('temperature.empty')}
        onRetry={onRetry}
      >
        {() =>
          temps && (
            <Stack gap="xs">
              <Group gap="xl">
                <div>
                  <Text size="xs" c="dimmed">
                    {t('temperature.max')}
                  </Text>
                  <Text fw={700} data-testid="dashboard-temp-max">
                    {temp(temps.max)}
                  </Text>
                </div>
                <div>
                  <Text size="xs" c="dimmed">
                    {t('temperature.avg')}
                  </Text>
                  <Text fw={700} data-testid="dashboard-temp-avg">
                    {temp(temps.avg)}
                  </Text>
                </div>
              </Group>
              {temps.buckets.map((b) => {
                const share = temps.online > 0 ? (b.count * 100) / temps.online : 0;
                const name = b.to === null ? t('temperature.above', { from: b.from }) : b.from === 0 ? t('temperature.below', { to: b.to }) : t('temperature.band', { from: b.from, to: b.to });
                return (
                  <div key={b.from} data-testid="dashboard-temp-band">
                    <Group justify="space-between" gap="xs">
                      <Text size="xs">{name}</Text>
                      <Text size="xs" c="dimmed">
                        {formatNumber(b.count)}
                      </Text>
                    </Group>
                    <Progress value={share} color={bandColor(b)} size="sm" aria-label={name} />
                  </div>
                );
              })}
              {temps.unknown > 0 && (
                <Text size="xs" c="dimmed">
                  {t('temperature.unknown', { count: temps.unknown })}
                </Text>
              )}
            </Stack>
          )
        }
      </PanelState>
    </Card>
  );
}
