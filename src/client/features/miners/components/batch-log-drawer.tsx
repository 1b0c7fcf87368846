/** The farm's batch log (GET /api/log/batchList), newest first; a row opens its progress. */
import { useState } from 'react';
import { Badge, Button, Drawer, Group, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePhone } from '@client/lib/use-phone';
import { formatDate } from '@shared/format/date';
import { useBatchLog } from '../api/batch-api';
import { BatchProgressPanel } from './batch-progress-panel';

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
          {rows.length === 0 ? (
            <Text c="dimmed" size="sm">
              {log.isPending ? '…' : t('batch.logTable.empty')}
            </Text>
          ) : (
            // Eight columns do not fit a phone: the table scrolls sideways on its own, not the whole drawer with its title.
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
                        <Button size={phone ? 'sm' : 'compact-xs'} variant="subtle" onClick={() => setOpenTask(r.taskId)} data-testid="batch-log-details">
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
