import { Paper, Stack, Text, Title } from '@mantine/core';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { recentMiners } from '../lib/field-cache';
import { relativeAge } from '../lib/relative-age';
import { MinerRow } from './miner-row';

/** The farm's last 20 opened miners, newest first (this device only). */
export function RecentMiners({ agentKey }: { agentKey: string }) {
  const { t, i18n } = useTranslation('field');
  const recent = useLiveQuery(() => recentMiners(agentKey), [agentKey]);
  return (
    <Stack gap={4} data-testid="field-recent">
      <Title order={4}>{t('home.recent')}</Title>
      {recent === undefined ? null : recent.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="field-recent-empty">
          {t('home.recentEmpty')}
        </Text>
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          {recent.map((r) =>
            r.miner ? (
              <MinerRow key={r.minerId} miner={r.miner} extra={relativeAge(r.openedAt, i18n.language)} testId="field-recent-row" />
            ) : (
              <Text key={r.minerId} p="sm" c="dimmed" size="sm" data-testid="field-recent-gone">
                {r.minerId} · {t('home.recentGone')}
              </Text>
            ),
          )}
        </Paper>
      )}
    </Stack>
  );
}
