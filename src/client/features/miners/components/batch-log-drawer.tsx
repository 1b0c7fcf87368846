/**
 * The farm's batch log (GET /api/log/batchList), newest first; a row opens its progress. On a desk a table; on a phone
 * one card per batch (operation, status, start, user, a progress bar and the counts), the whole card a tap that opens
 * it: the table's eight columns made a technician scroll sideways to reach the result and the Details button.
 */
import { useState } from 'react';
import { Badge, Button, Drawer, Group, Loader, Modal, Pagination, Progress, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';
import { formatDate } from '@shared/format/date';
import type { BatchLogRow } from '@shared/schemas/batch-operations';
import { useBatchLog } from '../api/batch-api';
import { BatchProgressPanel } from './batch-progress-panel';
import { RetryAlert } from './retry-alert';

const STATUS_COLOR = { pending: 'gray', running: 'blue', done: 'green' } as const;

export function BatchLogDrawer({ agentKey, opened, onClose }: { agentKey: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const [page, setPage] = useState(1);
  const [openTask, setOpenTask] = useState<string | null>(null);
  const log = useBatchLog(agentKey, page, opened);
  const rows = log.data?.list ?? [];
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / 20));
  return (
    <>
      <Drawer
        opened={opened}
        onClose={onClose}
        title={t('batch.log')}
        position="right"
        size={phone ? '100%' : 960}
        data-testid="batch-log"
      >
        <Stack gap="sm">
          {log.isError && (
            // A failed refresh keeps the rows shown below it; a failed first load has only this.
            <RetryAlert testId="batch-log-error" onRetry={() => log.refetch()}>
              {log.error.message}
            </RetryAlert>
          )}
          {rows.length === 0 ? (
            log.isPending ? (
              <Group gap="xs" data-testid="batch-log-loading">
                <Loader size="xs" />
                <Text c="dimmed" size="sm">
                  {t('state.loading')}
                </Text>
              </Group>
            ) : (
              !log.isError && (
                <Text c="dimmed" size="sm">
                  {t('batch.logTable.empty')}
                </Text>
              )
            )
          ) : phone ? (
            <Stack gap="xs" data-testid="batch-log-cards">
              {rows.map((r) => (
                <BatchLogCard key={r.taskId} row={r} onOpen={() => setOpenTask(r.taskId)} />
              ))}
            </Stack>
          ) : (
            // A narrow desk window: the table scrolls sideways on its own, not the whole drawer with its title.
            <Table.ScrollContainer minWidth={720} data-testid="batch-log-scroll">
              <Table striped fz="sm" data-testid="batch-log-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('batch.logTable.op')}</Table.Th>
                    <Table.Th>{t('batch.logTable.user')}</Table.Th>
                    <Table.Th>{t('batch.logTable.created')}</Table.Th>
                    <Table.Th>{t('batch.logTable.progress')}</Table.Th>
                    <Table.Th>{t('batch.logTable.ok')}</Table.Th>
                    <Table.Th>{t('batch.logTable.failed')}</Table.Th>
                    <Table.Th>{t('batch.logTable.status')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.taskId}>
                      <Table.Td>{t(`batch.ops.${r.op}`, { defaultValue: r.op })}</Table.Td>
                      <Table.Td>{r.user ?? '—'}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(r.createdAt, 'YYYY-MM-DD HH:mm:ss')}</Table.Td>
                      <Table.Td>
                        {r.done} / {r.total}
                      </Table.Td>
                      <Table.Td c="green">{r.ok}</Table.Td>
                      <Table.Td c={r.failed ? 'red' : undefined}>{r.failed}</Table.Td>
                      {/* A badge is cut to "RU…" in a narrow column: the column keeps its width instead. */}
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Badge variant="light" color={STATUS_COLOR[r.status]} style={{ overflow: 'visible' }} miw="max-content">
                          {t(`batch.progress.status.${r.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Button size="compact-xs" variant="subtle" onClick={() => setOpenTask(r.taskId)} data-testid="batch-log-details">
                          {t('batch.logTable.open')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="flex-end">
              <Pagination size="sm" total={pages} value={page} onChange={setPage} />
            </Group>
          )}
        </Stack>
      </Drawer>
      {openTask && (
        <Modal opened onClose={() => setOpenTask(null)} title={t('batch.progress.title')} fullScreen={phone}>
          <BatchProgressPanel agentKey={agentKey} taskId={openTask} />
        </Modal>
      )}
    </>
  );
}

/** One batch on a phone: the whole card opens its progress. */
function BatchLogCard({ row: r, onOpen }: { row: BatchLogRow; onOpen: () => void }) {
  const { t } = useTranslation('miners');
  const share = r.total > 0 ? (r.done / r.total) * 100 : 0;
  return (
    <UnstyledButton
      onClick={onOpen}
      data-testid="batch-log-card"
      aria-label={`${t(`batch.ops.${r.op}`, { defaultValue: r.op })} · ${t('batch.logTable.open')}`}
      style={{ display: 'block', width: '100%', padding: 'var(--mantine-spacing-sm)', border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text fw={600} size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {t(`batch.ops.${r.op}`, { defaultValue: r.op })}
        </Text>
        <Badge variant="light" color={STATUS_COLOR[r.status]} style={{ overflow: 'visible', flexShrink: 0 }} miw="max-content">
          {t(`batch.progress.status.${r.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" mt={2}>
        {formatDate(r.createdAt, 'YYYY-MM-DD HH:mm:ss')}
        {r.user ? ` · ${r.user}` : ''}
      </Text>
      <Progress value={share} size="sm" mt="xs" color={r.failed ? 'orange' : 'blue'} aria-label={t('batch.logTable.progress')} />
      <Group gap="md" mt={6} data-testid="batch-log-card-counts">
        <Text size="xs">
          {t('batch.logTable.progress')}: {r.done} / {r.total}
        </Text>
        <Text size="xs" c="green">
          {t('batch.logTable.ok')}: {r.ok}
        </Text>
        <Text size="xs" c={r.failed ? 'red' : 'dimmed'}>
          {t('batch.logTable.failed')}: {r.failed}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
