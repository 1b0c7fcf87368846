/**
 * Why the farm's offline miners are offline: the reason their agent gave for the failed polls (no answer, refused,
 * closed before a reply, unreachable), each a link to those miners in the list, and the rest ("other or not
 * recorded"). A row of miners without power shows as many "no answer"; a miner rebooting as "refused".
 */
import { Badge, Card, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@shared/format/number';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { PanelState } from './panel-state';
import { useLabels } from './use-labels';

interface ReasonRow {
  key: string;
  text: string;
  count: number;
  to: string;
}

/** The reasons given, most frequent first, then the offline miners without one (none when all have a reason). */
export function offlineReasonRows(counters: DashboardCounters, name: (code: number) => string, otherText: string): ReasonRow[] {
  // A summary kept from before the server counted reasons (the persisted query cache) has none: all are "other".
  const reasons = counters.offlineReasons ?? [];
  const rows: ReasonRow[] = reasons.map((r) => ({ key: String(r.code), text: name(r.code), count: r.count, to: `/device/miner?status=offline&errorCode=${r.code}` }));
  const other = counters.offline - reasons.reduce((sum, r) => sum + r.count, 0);
  if (other > 0) rows.push({ key: 'other', text: otherText, count: other, to: '/device/miner?status=offline' });
  return rows;
}

export function OfflineReasonsCard({ counters, pending, error, onRetry }: { counters: DashboardCounters | undefined; pending: boolean; error: boolean; onRetry: () => void }) {
  const { t } = useTranslation('dashboard');
  const label = useLabels();
  const rows = counters ? offlineReasonRows(counters, (code) => label('agentError', String(code)), t('offlineReasons.other')) : [];
  return (
    <Card withBorder padding="md" data-testid="dashboard-offline-reasons">
      <Title order={4} mb="sm">
        {t('offlineReasons.title')}
      </Title>
      <PanelState testId="dashboard-offline-reasons" pending={pending} error={error} empty={rows.length === 0} emptyText={t('offlineReasons.empty')} minHeight={64} onRetry={onRetry}>
        {() => (
          <Stack gap={2}>
            {/* The whole row is the link (a finger-size target on a phone); a long reason wraps beside its count. */}
            {rows.map((r) => (
              <UnstyledButton
                key={r.key}
                component={Link}
                to={r.to}
                data-testid="dashboard-offline-reason"
                data-reason={r.key}
                style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 'var(--mantine-spacing-xs)', minHeight: 32 }}
              >
                <Text size="sm" c="blue">
                  {r.text}
                </Text>
                <Badge color={r.key === 'other' ? 'gray' : 'red'} variant="light" style={{ flexShrink: 0 }}>
                  {formatNumber(r.count)}
                </Badge>
              </UnstyledButton>
            ))}
            <Text size="xs" c="dimmed">
              {t('offlineReasons.hint')}
            </Text>
          </Stack>
        )}
      </PanelState>
    </Card>
  );
}
