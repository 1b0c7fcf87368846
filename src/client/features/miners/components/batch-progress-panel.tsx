/** Live progress of one batch: polls batchProgress every 2 s until done; done/total bar, successes, failures with reasons. */
import { Badge, Group, Loader, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BatchFailure } from '@shared/schemas/batch-operations';
import { useBatchProgress } from '../api/batch-api';
import { useReasonLabel } from '@client/lib/batch-reasons';
import { progressFinished, progressPercent } from '../lib/batch-target';

export function BatchProgressPanel({ agentKey, taskId }: { agentKey: string; taskId: string }) {
  const { t } = useTranslation('miners');
  const reasonLabel = useReasonLabel();
  const q = useBatchProgress(agentKey, taskId);
  const p = q.data;
  if (!p) return q.isError ? <Text c="red">{q.error.message}</Text> : <Loader size="sm" />;
  const finished = progressFinished(p);
  const failures: BatchFailure[] = p.failures;
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
      <Text size="sm" fw={500} c={failures.length ? 'red' : 'dimmed'}>
        {t('batch.progress.failures', { count: failures.length })}
      </Text>
      {failures.length > 0 && (
        <ScrollArea.Autosize mah={220}>
          <Table striped withRowBorders={false} fz="xs" data-testid="batch-progress-failures">
            <Table.Tbody>
              {failures.map((f) => (
                <Table.Tr key={f.ip}>
                  <Table.Td ff="monospace">{f.ip}</Table.Td>
                  <Table.Td>{reasonLabel(f.reason)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
