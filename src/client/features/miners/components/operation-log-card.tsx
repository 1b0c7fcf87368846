/** A miner's operation log (spec 3 §3): batch operations that reached it and record changes, newest first, paged. */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Center, Group, Loader, Pagination, Table, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import type { MinerLabelKind } from '@shared/miner-labels';
import type { MinerOpLogRow } from '@shared/schemas/miner-records';
import { useMinerOpLog } from '../api/miner-records-api';
import { useMinerLabels } from '../lib/use-miner-labels';

const PAGE_SIZE = 20;

function detailText(r: MinerOpLogRow, label: (kind: MinerLabelKind, value: string) => string, t: TFunction<'miners'>): string {
  const d = r.detail;
  if (r.action === 'securityRaised' && Array.isArray(d.kinds)) return d.kinds.map((k) => t(`opLog.securityKinds.${String(k)}`, { defaultValue: String(k) })).join(', ');
  if (r.action === 'updateSn' && typeof d.to === 'string') return `${typeof d.from === 'string' && d.from ? d.from : '-'} → ${d.to}`;
  if (r.action === 'repairStatus' && typeof d.status === 'string') return [label('repairStatus', d.status), typeof d.note === 'string' ? d.note : ''].filter(Boolean).join(' — ');
  if (r.action === 'securityProcessed') return typeof d.note === 'string' ? d.note : '';
  return Object.entries(d)
    .filter(([k]) => k !== 'id')
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join('; ');
}

export function OperationLogCard({ agentKey, ip }: { agentKey: string; ip: string }) {
  const { t } = useTranslation('miners');
  const [page, setPage] = useState(1);
  const log = useMinerOpLog(agentKey, ip, page);
  const data = log.data;
  const actionName = (a: string) => t(`opLog.actions.${a}`, { defaultValue: a });
  const { label } = useMinerLabels();

  let body;
  if (log.isPending) {
    body = (
      <Center mih={80}>
        <Loader size="sm" />
      </Center>
    );
  } else if (log.isError && !data) {
    body = (
      <Alert color="red" data-testid="miner-op-log-error">
        {t('opLog.failed')}
        <Button size="xs" variant="light" ml="sm" onClick={() => void log.refetch()}>
          {t('state.retry')}
        </Button>
      </Alert>
    );
  } else if (!data || data.total === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="miner-op-log-empty">
        {t('opLog.empty')}
      </Text>
    );
  } else {
    body = (
      <>
        <Table.ScrollContainer minWidth={640}>
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('opLog.at')}</Table.Th>
                <Table.Th>{t('opLog.action')}</Table.Th>
                <Table.Th>{t('opLog.user')}</Table.Th>
                <Table.Th>{t('opLog.result')}</Table.Th>
                <Table.Th>{t('opLog.detail')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.list.map((r, i) => (
                <Table.Tr key={`${r.at}-${r.action}-${i}`} data-testid="miner-op-log-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(r.at)}</Table.Td>
                  <Table.Td>{actionName(r.action)}</Table.Td>
                  <Table.Td>{r.user ?? '-'}</Table.Td>
                  <Table.Td>
                    {r.ok === null ? (
                      <Badge color="blue" variant="light">{t('opLog.queued')}</Badge>
                    ) : r.ok ? (
                      <Badge color="green" variant="light">{t('opLog.ok')}</Badge>
                    ) : (
                      <Badge color="red" variant="light" tt="none">
                        {t('opLog.failedResult')}
                        {r.reason ? `: ${r.reason}` : ''}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{detailText(r, label, t) || '-'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data.total > PAGE_SIZE && (
          <Group justify="flex-end" mt="sm">
            <Pagination size="sm" total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} data-testid="miner-op-log-pages" />
          </Group>
        )}
      </>
    );
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid="miner-op-log">
      <Group justify="space-between" mb="sm">
        <Title order={5}>{t('opLog.title')}</Title>
        {data && data.total > 0 && (
          <Text size="sm" c="dimmed">
            {t('opLog.total', { count: data.total })}
          </Text>
        )}
      </Group>
      {body}
    </Card>
  );
}
