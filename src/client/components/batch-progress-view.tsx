/**
 * Live progress of one batch as every batch shows it: the operation and its state, a done / total bar, the miners done
 * and the failures with their reasons. The caller polls (the miners' batchProgress, or a page's own task call such as
 * the abnormal alarms' range reboot, read with that page's permission key).
 */
import { Badge, Group, Loader, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BatchProgress } from '@shared/schemas/batch-operations';
import { progressFinished, progressPercent } from '@client/lib/batch-progress';
import { splitReason, useReasonLabel } from '@client/lib/batch-reasons';

export function BatchProgressView({ query }: { query: UseQueryResult<BatchProgress, Error> }) {
  const { t, i18n } = useTranslation('miners');
  const reasonLabel = useReasonLabel();
  // The agent's detail after a reason's code ("unsupported-op: the Whatsminer API has no fan-speed setting …") is its
  // own English text: shown in English only; in other languages the translated reason shows, the detail on hover.
  const english = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  const failureText = (reason: string) => {
    const { code, detail } = splitReason(reason);
    if (!detail) return { text: reasonLabel(code), title: undefined };
    if (english) return { text: reasonLabel(reason), title: undefined };
    const known = i18n.exists(`batch.reasons.${detail}`, { ns: 'miners' });
    return known ? { text: `${reasonLabel(code)}: ${reasonLabel(detail)}`, title: undefined } : { text: reasonLabel(code), title: detail };
  };
  const p = query.data;
  if (!p) return query.isError ? <Text c="red">{query.error.message}</Text> : <Loader size="sm" />;
  const finished = progressFinished(p);
  return (
    <Stack gap="xs" data-testid="batch-progress">
      <Group justify="space-between">
        <Text fw={500}>{t(`batch.ops.${p.op}`, { defaultValue: p.op })}</Text>
        <Badge color={finished ? 'green' : 'blue'} variant="light" data-testid="batch-progress-status">
          {t(`batch.progress.status.${finished ? 'done' : p.status}`)}
        </Badge>
      </Group>
      <Progress value={progressPercent(p)} animated={!finished} aria-label={t('batch.progress.title')} />
      <Text size="sm" data-testid="batch-progress-count">
        {t('batch.progress.done', { done: p.done, total: p.total })}
      </Text>
      <Text size="sm" fw={500} c="green">
        {t('batch.progress.successes', { count: p.successes.length })}
      </Text>
      {p.successes.length > 0 && (
        <ScrollArea.Autosize mah={100}>
          <Text size="xs" ff="monospace" data-testid="batch-progress-successes">
            {p.successes.join(', ')}
          </Text>
        </ScrollArea.Autosize>
      )}
      <Text size="sm" fw={500} c={p.failures.length ? 'red' : 'dimmed'}>
        {t('batch.progress.failures', { count: p.failures.length })}
      </Text>
      {p.failures.length > 0 && (
        <ScrollArea.Autosize mah={220}>
          <Table striped withRowBorders={false} fz="xs" data-testid="batch-progress-failures">
            <Table.Tbody>
              {p.failures.map((f) => {
                const r = failureText(f.reason);
                return (
                  <Table.Tr key={f.ip}>
                    <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                      {f.ip}
                    </Table.Td>
                    <Table.Td title={r.title}>{r.text}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
