/**
 * Why the farm's offline miners are offline: the reason their agent gave for the failed polls (no answer, refused,
 * closed before a reply, unreachable), each a link to those miners in the list, and the rest ("other or not
 * recorded"); then where: the zones (sub-areas) holding most of them. A row of racks without power shows as many
 * "no answer" and as one zone; a miner rebooting as "refused".
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { type CountLink, CountLinks } from './count-links';
import { PanelState } from './panel-state';
import { useLabels } from './use-labels';

/** The reasons given, most frequent first, then the offline miners without one (none when all have a reason). */
export function offlineReasonRows(counters: DashboardCounters, name: (code: number) => string, otherText: string): CountLink[] {
  // A summary kept from before the server counted reasons (the persisted query cache) has none: all are "other".
  const reasons = counters.offlineReasons ?? [];
  const rows: CountLink[] = reasons.map((r) => ({ key: String(r.code), text: name(r.code), count: r.count, to: `/device/miner?status=offline&errorCode=${r.code}` }));
  const other = counters.offline - reasons.reduce((sum, r) => sum + r.count, 0);
  if (other > 0) rows.push({ key: 'other', text: otherText, count: other, to: '/device/miner?status=offline', color: 'gray' });
  return rows;
}

/** The zones holding the most offline miners, each a link to its offline miners (none in a summary kept before zones were counted). */
export function offlineZoneRows(counters: DashboardCounters): CountLink[] {
  return (counters.offlineZones ?? []).map((z) => ({ key: z.id, text: z.path, count: z.count, to: `/device/miner?status=offline&subArea=${z.id}` }));
}

export function OfflineReasonsCard({ counters, pending, error, onRetry }: { counters: DashboardCounters | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  const label = useLabels();
  const rows = counters ? offlineReasonRows(counters, (code) => label('offlineReason', String(code)), t('offlineReasons.other')) : [];
  const zones = counters ? offlineZoneRows(counters) : [];
  return (
    <Card withBorder padding="md" data-testid="dashboard-offline-reasons">
      <Title order={4} mb="sm">
        {t('offlineReasons.title')}
      </Title>
      <PanelState testId="dashboard-offline-reasons" pending={pending} error={error} empty={rows.length === 0} emptyText={t('offlineReasons.empty')} minHeight={64} onRetry={onRetry}>
        {() => (
          <Stack gap="xs">
            <CountLinks rows={rows} rowTestId="dashboard-offline-reason" />
            {zones.length > 0 && (
              <div data-testid="dashboard-offline-zones">
                <Text size="xs" fw={500} c="dimmed">
                  {t('offlineReasons.zones')}
                </Text>
                <CountLinks rows={zones} rowTestId="dashboard-offline-zone" />
              </div>
            )}
            <Text size="xs" c="dimmed">
              {t('offlineReasons.hint')}
            </Text>
          </Stack>
        )}
      </PanelState>
    </Card>
  );
}
